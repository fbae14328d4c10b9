import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { examples } from '../shared.js';

export function showCommand(ctx: Ctx): Command {
  return new Command('show')
    .alias('get')
    .description('Show one notification laid out for reading (reading it marks it seen by your account)')
    .argument('<id>', "the notification's id")
    .addHelpText(
      'after',
      examples('clinadmin notifications show ntf_queue_1', 'clinadmin notifications show ntf_queue_1 -o json'),
    )
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const { runShow } = await import('./show-run.js');
      await runShow(ctx, id, cmd);
    });
}
