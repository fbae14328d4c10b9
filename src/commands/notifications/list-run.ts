import type { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { filterNotifications } from '../../core/notifications.js';
import { chooseFormat, present } from '../../output/present.js';
import { say } from '../../output/text-out.js';
import { notifications } from '../../resources/index.js';
import { checkFields, optsOf, viewsOf, withClient } from '../shared.js';
import { filterOf, notHere, whenRule, windowOf } from './filters.js';

/** `notifications list`: the whole list, filtered here (the API has no filters), newest first. */
export async function runList(ctx: Ctx, cmd: Command): Promise<void> {
  const opts = await optsOf(cmd, ({ z, converted, wholeNumber }) => ({
    type: z.optional(z.string()),
    code: z.optional(z.string()),
    unseen: z.optional(z.boolean()),
    seenBy: z.optional(z.string()),
    unseenBy: z.optional(z.string()),
    since: z.optional(whenRule(converted, 'since')),
    until: z.optional(whenRule(converted, 'until')),
    limit: z.optional(wholeNumber(0)),
  }));
  checkFields(notifications, opts.fields);
  const window = windowOf(opts);
  await withClient(ctx, opts, async ({ client, settings }) => {
    const filter = { ...filterOf(opts, settings.account), ...window };
    const all = await client.list<{ id: string }>(notifications.path);
    const matching = filterNotifications(all, filter);
    // A typo in a value reads as a typo, not as "none were sent": said beside the empty list, exit 0.
    const typos = matching.length === 0 ? notHere(all, filter) : [];
    // A person at a terminal sees the newest 50 (gh's convention); a pipe gets everything.
    const table = ['table', 'wide'].includes(chooseFormat(ctx, opts.output));
    const limit = opts.limit === 0 ? undefined : (opts.limit ?? (table && ctx.stdout.isTTY ? 50 : undefined));
    const data = limit === undefined ? matching : matching.slice(0, limit);
    // Filtered to one type, every row has it: TYPE would take a column the code can use.
    const views = await viewsOf(notifications);
    const oneType = (cols: typeof views.columns) =>
      opts.type === undefined || !table ? cols : cols.filter((c) => c.key !== 'type');
    await present(ctx, data, {
      ...opts,
      account: settings.account,
      columns: oneType(views.columns),
      wide: oneType(views.wide),
      empty: typos.length > 0 ? typos.join('\n') : 'no notifications',
      ids: all.map((n) => n.id),
    });
    if (typos.length > 0 && !table) for (const line of typos) say(ctx, line);
    if (opts.limit === undefined && data.length < matching.length) {
      say(ctx, `showing the newest ${data.length} of ${matching.length} notifications; --limit 0 shows all`);
    }
  });
}
