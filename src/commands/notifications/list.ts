import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { examples } from '../shared.js';
import { ACCOUNT_NOTE, MARKS_NOTHING } from './marks.js';

export function listCommand(ctx: Ctx): Command {
  return new Command('list')
    .alias('ls')
    .description('List notifications, newest first, filtered here (the API has no filters)')
    .option('--type <type>', 'only this type, e.g. warehouse (exact; a type none has is said, with those there are)')
    .option('--code <code>', 'only this code, e.g. new-queue-item (exact, as --type)')
    .option('--seen-by <account>', 'only those this account has seen')
    .option('--unseen-by <account>', 'only those this account has not seen')
    .option('--unseen', 'only those your account has not seen: --unseen-by your account')
    .option(
      '--since <when>',
      'only from then on: 90s, 15m, 1h, 2d, 08:00 (today), today, yesterday, monday (the last), 2026-11-20, ' +
        '2026-11-20T08:00',
    )
    .option('--until <when>', 'only before then, in the same forms (a day counts whole: --until yesterday)')
    .option('--limit <n>', 'at most this many; 0 for all (at a terminal the default is 50)')
    .option('--no-headers', 'leave out the header row of -o table and -o wide (for scripts that read columns)')
    .addHelpText(
      'after',
      `
${MARKS_NOTHING}

${ACCOUNT_NOTE}
${examples(
  'clinadmin notifications list --unseen',
  'clinadmin notifications list --type warehouse --seen-by acc_support',
  'clinadmin notifications list --type warehouse --since yesterday --until today',
  'clinadmin notifications list --code new-queue-item --limit 5 -o json',
)}`,
    )
    .action(async (_o: unknown, cmd: Command) => {
      const { runList } = await import('./list-run.js');
      await runList(ctx, cmd);
    });
}
