import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { examples } from '../shared.js';
import { MARKS_ONE } from './marks.js';

export function showCommand(ctx: Ctx): Command {
  return new Command('show')
    .alias('get')
    .description('Show one notification laid out for reading, with the accounts that have seen it')
    .argument('<id>', "the notification's id")
    .option('--peek', 'read it from the list, without marking it seen (stops at the page that holds it)')
    .addHelpText(
      'after',
      `
${MARKS_ONE}
${examples(
  'clinadmin notifications show ntf_queue_1',
  'clinadmin notifications show ntf_queue_1 --peek',
  'clinadmin notifications show ntf_queue_1 -o json',
)}`,
    )
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const { runShow } = await import('./show-run.js');
      await runShow(ctx, id, cmd);
    });
}
