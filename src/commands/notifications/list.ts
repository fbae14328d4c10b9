import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { examples } from '../shared.js';

export function listCommand(ctx: Ctx): Command {
  return new Command('list')
    .alias('ls')
    .description('List notifications, newest first, filtered here (the API has no filters)')
    .option('--type <type>', 'only this type, e.g. warehouse')
    .option('--code <code>', 'only this code, e.g. new-queue-item')
    .option('--unseen', 'leave out those the current account has seen (needs an account)')
    .option('--since <when>', 'only newer ones: a duration (30m, 2h, 7d) or a date (2026-11-20)')
    .option('--limit <n>', 'at most this many; 0 for all (at a terminal the default is 50)')
    .option('--no-headers', 'leave out the header row of -o table and -o wide (for scripts that read columns)')
    .addHelpText(
      'after',
      `
The current account comes from the profile (clinadmin login --account ID, or clinadmin config set
account ID) or CLINADMIN_ACCOUNT.
${examples(
  'clinadmin notifications list --unseen',
  'clinadmin notifications list --type warehouse --since 2h',
  'clinadmin notifications list --code new-queue-item --limit 5 -o json',
)}`,
    )
    .action(async (_o: unknown, cmd: Command) => {
      const { runList } = await import('./list-run.js');
      await runList(ctx, cmd);
    });
}
