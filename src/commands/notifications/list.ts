import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { notifications } from '../../resources/index.js';
import { columnsOf, examples, optsOf, withClient } from '../shared.js';

export function listCommand(ctx: Ctx): Command {
  return new Command('list')
    .alias('ls')
    .description('List notifications, newest first, filtered here (the API has no filters)')
    .option('--type <type>', 'only this type, e.g. warehouse')
    .option('--code <code>', 'only this code, e.g. new-queue-item')
    .option('--unseen', 'leave out those the current account has seen (needs an account)')
    .option('--since <when>', 'only newer ones: a duration (30m, 2h, 7d) or a date (2026-11-20)')
    .option('--limit <n>', 'at most this many')
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
      const { filterNotifications, parseSince } = await import('../../core/notifications.js');
      const opts = await optsOf(cmd, ({ z, converted, wholeNumber }) => ({
        type: z.optional(z.string()),
        code: z.optional(z.string()),
        unseen: z.optional(z.boolean()),
        since: z.optional(
          converted('is neither a duration (30m, 2h, 7d) nor a date (2026-11-20, 2026-11-20T08:00)', (s) =>
            parseSince(s),
          ),
        ),
        limit: z.optional(wholeNumber(1)),
      }));
      await withClient(ctx, opts, async ({ client, settings }) => {
        if (opts.unseen && !settings.account) {
          throw new UsageError(
            '--unseen needs to know your account',
            'set it with `clinadmin config set account ID` (or `clinadmin login --account ID`), or CLINADMIN_ACCOUNT',
          );
        }
        const all = await client.list<{ id: string }>(notifications.path);
        const data = filterNotifications(all, {
          type: opts.type,
          code: opts.code,
          since: opts.since,
          limit: opts.limit,
          unseenBy: opts.unseen ? settings.account : undefined,
        });
        const { present } = await import('../../output/present.js');
        await present(ctx, data, {
          ...opts,
          account: settings.account,
          columns: await columnsOf(notifications),
          empty: 'no notifications',
        });
      });
    });
}
