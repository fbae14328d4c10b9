import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import type { Resource } from '../../resources/index.js';
import { examples, optsOf } from '../shared.js';

/** kubectl edit: the record in $VISUAL or $EDITOR as JSON; only what changed is sent. */
export function editCommand(ctx: Ctx, res: Resource): Command {
  return new Command('edit')
    .description(`Edit a ${res.noun} in $VISUAL or $EDITOR and send only what changed`)
    .argument('<id>', `the ${res.noun}'s id${res.key?.includes('name') ? ', or its exact name' : ''}`)
    .addHelpText(
      'after',
      `${examples(`clinadmin ${res.group} edit ID`, `EDITOR=nano clinadmin ${res.group} edit ID`)}
The record opens as JSON. Fields the service sets, and fields left as they were, are not sent. An
edit that does not parse, or breaks a rule, is refused with the reason, and the edited file is kept
(the hint says where); otherwise the file is removed, whether the edit was sent or abandoned.
`,
    )
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const { runEdit } = await import('./edit-run.js');
      await runEdit(ctx, res, id, await optsOf(cmd));
    });
}
