import { Command } from 'commander';
import type { Ctx, RunState } from '../../context.js';
import { examples, optsOf } from '../shared.js';

export function browseCommand(ctx: Ctx, state: RunState): Command {
  return new Command('browse')
    .description('Read notifications full-screen: the list, the selected one, new ones as they come')
    .option('--type <type>', 'only this type at the start (t cycles types)')
    .option('--code <code>', 'only this code')
    .option('--unseen', 'only those your account has not seen (u toggles it; needs an account)')
    .option('--seen-by <account>', 'only those this account has seen')
    .option('--unseen-by <account>', 'only those this account has not seen')
    .option('--since <when>', 'only from then on: 15m, 08:00, today, monday, 2026-11-20 (as list takes it)')
    .option('--until <when>', 'only before then, in the same forms (a day counts whole)')
    .option('--interval <seconds>', 'how often to ask the server for new ones', '2')
    .addHelpText(
      'after',
      `
Keys: ↑/↓ or j/k move, PgUp/PgDn, Home/End; Enter opens the selected notification; space and b scroll its \
detail; / filters by text as you type, Esc clears the filter (with none, Esc leaves); u toggles unseen only; t \
cycles types; r reloads; q, Esc or Ctrl-C leaves. New notifications come by polling, as watch does, marked + at \
the top of the list; * marks those your account has not seen; the detail names the accounts that have seen it. \
Needs a terminal: in scripts use notifications list or watch.

Moving over the list and polling read only the list, which marks nothing on clinadmin serve; Enter reads the \
selected one by its id, which on serve adds your account to its seenBy. The real service's rule is not \
documented.
${examples(
  'clinadmin notifications browse',
  'clinadmin notifications browse --unseen --type warehouse',
  'clinadmin notifications browse --since monday --until today',
  'clinadmin notifications browse --type warehouse --unseen-by acc_support',
)}`,
    )
    .action(async (_o: unknown, cmd: Command) => {
      const { whenRule } = await import('./filters.js');
      const opts = await optsOf(cmd, ({ z, seconds, converted }) => ({
        type: z.optional(z.string()),
        code: z.optional(z.string()),
        unseen: z.optional(z.boolean()),
        seenBy: z.optional(z.string()),
        unseenBy: z.optional(z.string()),
        since: z.optional(whenRule(converted, 'since')),
        until: z.optional(whenRule(converted, 'until')),
        interval: seconds,
      }));
      const { browse } = await import('./browse-run.js');
      state.exitCode = await browse(ctx, opts);
    });
}
