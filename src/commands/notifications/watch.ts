import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { examples, optsOf } from '../shared.js';
import { MARKS_NOTHING } from './marks.js';

export function watchCommand(ctx: Ctx): Command {
  return new Command('watch')
    .description('Print notifications as they arrive, one line each, until Ctrl-C')
    .option('--type <type>', 'only this type')
    .option('--code <code>', 'only this code')
    .option('--seen-by <account>', 'only those this account has seen')
    .option('--unseen-by <account>', 'only those this account has not seen')
    .option('--unseen', 'only those your account has not seen: --unseen-by your account')
    .option('--since <when>', 'first print those from then on (replayed, oldest first): 15m, 08:00, today, monday')
    .option('--interval <seconds>', 'how often to ask the server', '2')
    .addHelpText(
      'after',
      `
Survives the server going away: says so once, keeps trying with backoff, and goes on when it is back.

${MARKS_NOTHING}
${examples(
  'clinadmin notifications watch',
  'clinadmin notifications watch --unseen --since 08:00',
  'clinadmin notifications watch --type warehouse -o ndjson | jq .title',
)}`,
    )
    .action(async (_o: unknown, cmd: Command) => {
      const { whenRule } = await import('./filters.js');
      const opts = await optsOf(cmd, ({ z, seconds, converted }) => ({
        type: z.optional(z.string()),
        code: z.optional(z.string()),
        seenBy: z.optional(z.string()),
        unseenBy: z.optional(z.string()),
        unseen: z.optional(z.boolean()),
        since: z.optional(whenRule(converted, 'since')),
        interval: seconds,
        output: z.optional(
          z.enum(['table', 'ndjson', 'json'], { error: 'watch prints lines: use -o table or -o ndjson' }),
        ),
      }));
      const { watch } = await import('./watch-run.js');
      await watch(ctx, opts);
    });
}
