import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { notifications } from '../../resources/index.js';
import { checkFields, examples, optsOf, viewsOf, withClient } from '../shared.js';

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
        limit: z.optional(wholeNumber(0)),
      }));
      checkFields(notifications, opts.fields);
      await withClient(ctx, opts, async ({ client, settings }) => {
        if (opts.unseen && !settings.account) {
          throw new UsageError(
            '--unseen needs to know your account',
            'set it with `clinadmin config set account ID` (or `clinadmin login --account ID`), or CLINADMIN_ACCOUNT',
          );
        }
        const all = await client.list<{ id: string }>(notifications.path);
        const matching = filterNotifications(all, {
          type: opts.type,
          code: opts.code,
          since: opts.since,
          unseenBy: opts.unseen ? settings.account : undefined,
        });
        const { chooseFormat, present } = await import('../../output/present.js');
        // A person at a terminal sees the newest 50 (gh's convention); a pipe gets everything.
        const table = ['table', 'wide'].includes(chooseFormat(ctx, opts.output));
        const limit = opts.limit === 0 ? undefined : (opts.limit ?? (table && ctx.stdout.isTTY ? 50 : undefined));
        const data = limit === undefined ? matching : matching.slice(0, limit);
        await present(ctx, data, {
          ...opts,
          account: settings.account,
          ...(await viewsOf(notifications)),
          empty: 'no notifications',
        });
        if (opts.limit === undefined && data.length < matching.length) {
          ctx.stderr.write(
            `showing the newest ${data.length} of ${matching.length} notifications; --limit 0 shows all\n`,
          );
        }
      });
    });
}
