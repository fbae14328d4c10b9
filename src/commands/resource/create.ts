import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { fieldFlags, type Resource } from '../../resources/index.js';
import { optsOf } from '../shared.js';
import { addBodyFlags, addFieldFlags, type WriteSpec } from './write-define.js';

/** `create` of a resource: its flags come from the registry, its rules from the resource's schemas. */
export function createCommand(ctx: Ctx, res: Resource, w: WriteSpec): Command {
  const cmd = new Command('create').description(`Create a ${res.noun}`);
  addFieldFlags(cmd, fieldFlags(res), () => false);
  return addBodyFlags(cmd, w).action(async (_o: unknown, command: Command) => {
    const { runCreate } = await import('./create-run.js');
    await runCreate(ctx, res, w, await optsOf(command));
  });
}
