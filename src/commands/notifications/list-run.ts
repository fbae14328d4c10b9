import type { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { filterNotifications, parseSince } from '../../core/notifications.js';
import { UsageError } from '../../errors.js';
import { chooseFormat, present } from '../../output/present.js';
import { notifications } from '../../resources/index.js';
import { checkFields, optsOf, viewsOf, withClient } from '../shared.js';

/** `notifications list`: the whole list, filtered here (the API has no filters), newest first. */
export async function runList(ctx: Ctx, cmd: Command): Promise<void> {
  const opts = await optsOf(cmd, ({ z, converted, wholeNumber }) => ({
    type: z.optional(z.string()),
    code: z.optional(z.string()),
    unseen: z.optional(z.boolean()),
    since: z.optional(
      converted('is neither a duration (30m, 2h, 7d) nor a date (2026-11-20, 2026-11-20T08:00)', (s) => parseSince(s)),
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
      ctx.stderr.write(`showing the newest ${data.length} of ${matching.length} notifications; --limit 0 shows all\n`);
    }
  });
}
