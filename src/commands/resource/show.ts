import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import type { Resource } from '../../resources/index.js';
import { examples, optsOf } from '../shared.js';

export function showCommand(ctx: Ctx, spec: Resource): Command {
  return new Command('show')
    .alias('get')
    .description(`Show one ${spec.noun}`)
    .argument('<id>', `the ${spec.noun}'s id${spec.key?.includes('name') ? ', or its name (any case)' : ''}`)
    .addHelpText('after', examples(`clinadmin ${spec.group} show ID`, `clinadmin ${spec.group} show ID -o json`))
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const opts = await optsOf(cmd);
      const { runShow } = await import('./show-run.js');
      await runShow(ctx, spec, id, opts);
    });
}
