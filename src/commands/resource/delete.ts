import { Command } from 'commander';
import type { Ctx, RunState } from '../../context.js';
import type { Resource } from '../../resources/index.js';
import { examples } from '../shared.js';

export function deleteCommand(ctx: Ctx, res: Resource, state: RunState): Command {
  return new Command('delete')
    .alias('rm')
    .description(`Delete one or more ${res.plural}`)
    .argument('<ids...>', `ids of the ${res.plural} to delete${res.key?.includes('name') ? ' (or exact names)' : ''}`)
    .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)')
    .addHelpText('after', examples(`clinadmin ${res.group} delete ID`, `clinadmin ${res.group} delete ID1 ID2 --yes`))
    .action(async (ids: string[], _o: unknown, cmd: Command) => {
      const { runDelete } = await import('./delete-run.js');
      await runDelete(ctx, res, state, ids, cmd);
    });
}
