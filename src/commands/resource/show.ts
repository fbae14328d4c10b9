import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import type { Resource } from '../../resources/index.js';
import { examples, optsOf } from '../shared.js';

export function showCommand(ctx: Ctx, res: Resource): Command {
  return new Command('show')
    .alias('get')
    .description(`Show one ${res.noun}`)
    .argument('<id>', `the ${res.noun}'s id${res.key?.includes('name') ? ', or its name (any case)' : ''}`)
    .addHelpText('after', examples(`clinadmin ${res.group} show ID`, `clinadmin ${res.group} show ID -o json`))
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const opts = await optsOf(cmd);
      const { runShow } = await import('./show-run.js');
      await runShow(ctx, res, id, opts);
    });
}
