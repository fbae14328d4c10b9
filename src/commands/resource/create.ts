import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { fieldFlags, type Resource } from '../../resources/index.js';
import { optsOf } from '../shared.js';
import { addBodyFlags, addFieldFlags, type WriteSpec } from './write-define.js';

/** `create` of a resource: its flags come from the registry, its rules from the resource's schemas. */
export function createCommand(ctx: Ctx, spec: Resource, w: WriteSpec): Command {
  const cmd = new Command('create').description(`Create a ${spec.noun}`);
  addFieldFlags(cmd, fieldFlags(spec), () => false);
  return addBodyFlags(cmd, w).action(async (_o: unknown, command: Command) => {
    const { runCreate } = await import('./create-run.js');
    await runCreate(ctx, spec, w, await optsOf(command));
  });
}
