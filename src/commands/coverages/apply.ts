import { Command } from 'commander';
import type { Ctx, RunState } from '../../context.js';
import { addSyncOptions, syncShape } from '../resource/sync-options.js';
import { examples, optsOf } from '../shared.js';

export function applyCommand(ctx: Ctx, state: RunState): Command {
  return addSyncOptions(new Command('apply'), 'print the plan as a diff and send nothing', 'contract')
    .description(
      'Make the server hold the coverages of a file: create missing ones, update differing ones, never duplicate',
    )
    .argument('<files...>', 'JSON array, one object, a wrapper object, or NDJSON; - for stdin')
    .addHelpText(
      'after',
      `
Each coverage is found by (contract, name), or by its id when the input carries one of this server.
Made to run unattended: it prompts only for --prune at a terminal, once for all deletions.
--prune makes the server hold exactly the file's coverages for each contract the file names: the
others of those contracts are deleted, after the file's records are sent; without a terminal it
needs --yes. Exit codes as for \`measures import\`.
${examples(
  'clinadmin coverages apply coverages.json',
  'clinadmin coverages apply coverages.json --dry-run --exit-code',
  'clinadmin coverages apply coverages.json --prune --yes   # CI: exactly the file, per contract',
  'clinadmin coverages apply - -o json < seed.ndjson',
)}`,
    )
    .action(async (files: string[], _o: unknown, cmd: Command) => {
      const { runSync } = await import('../resource/sync-run.js');
      await runSync(ctx, await optsOf(cmd, syncShape), 'coverages', files, state);
    });
}
