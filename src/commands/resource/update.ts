import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { fieldFlags, type Resource } from '../../resources/index.js';
import { optsOf } from '../shared.js';
import { addRangeVerbs } from './update-ranges.js';
import { addBodyFlags, addFieldFlags, isRangeFlag, type WriteSpec } from './write-define.js';

/** `update` of a resource: the fields given change; ranges change one at a time (update-ranges.ts). */
export function updateCommand(ctx: Ctx, res: Resource, w: WriteSpec): Command {
  const cmd = new Command('update').description(`Update fields of a ${res.noun}`);
  cmd.argument('<id>', `the ${res.noun}'s id${res.key?.includes('name') ? ', or its exact name' : ''}`);
  const flags = fieldFlags(res);
  // Create-only flags, and the replace-all range flags, stay known, hidden: using one gets a sentence.
  addFieldFlags(cmd, flags, (f) => !f.update || isRangeFlag(f));
  addRangeVerbs(cmd, flags.filter(isRangeFlag));
  cmd
    .option('--dry-run', 'print the field-by-field diff and send nothing')
    .option('-y, --yes', 'replace ranges without asking (needed without a terminal)');
  return addBodyFlags(cmd, w).action(async (id: string, _o: unknown, command: Command) => {
    const { runUpdate } = await import('./update-run.js');
    await runUpdate(ctx, res, w, id, await optsOf(command));
  });
}
