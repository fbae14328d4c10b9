import type { Ctx } from '../../context.js';
import { filterNotifications } from '../../core/notifications.js';
import { CliError, EXIT } from '../../errors.js';
import { localTime } from '../../output/columns.js';
import { visible } from '../../output/text.js';
import { writeLines } from '../../output/text-out.js';
import { connect } from '../connect.js';
import type { Opts } from '../shared.js';
import { type Note, newNotifications } from './poll.js';

export interface WatchOptions extends Opts {
  type?: string;
  code?: string;
  /** Milliseconds between polls. */
  interval: number;
  output?: 'table' | 'ndjson' | 'json';
}

/** Polls the list and prints what is new; the API documents no push, so polling is the honest way. */
export async function watch(ctx: Ctx, opts: WatchOptions): Promise<void> {
  const interval = opts.interval;
  const format = opts.output ?? (ctx.stdout.isTTY ? 'table' : 'ndjson');
  const { client } = await connect(ctx, opts);
  const stop = ctx.waitForSignal(['SIGINT', 'SIGTERM']);
  let stopped = false;
  void stop.promise.then(() => (stopped = true));
  const seen = new Set<string>();
  let first = true;
  let down = false;
  let delay = interval;
  const print = (n: Note) => {
    if (format === 'table') {
      const line = `${localTime(n.createdAt)}  ${n.type ?? ''}  ${n.code ?? ''}  ${n.title ?? ''}  (${n.id})`;
      void writeLines(ctx, [visible(line, true)]);
    } else void writeLines(ctx, [JSON.stringify(n)]);
  };
  try {
    if (format === 'table') ctx.stderr.write('watching for notifications; Ctrl-C to stop\n');
    while (!stopped) {
      try {
        const fresh = await newNotifications(client, seen);
        if (down) ctx.stderr.write('the server is back; watching again\n');
        down = false;
        delay = interval;
        for (const n of fresh) seen.add(n.id);
        // What was there before we started is history, not news.
        if (!first) {
          const shown = filterNotifications(fresh, {
            type: opts.type,
            code: opts.code,
          }).reverse();
          for (const n of shown) print(n);
        }
        first = false;
      } catch (err) {
        if (err instanceof CliError && err.exitCode === EXIT.auth) throw err;
        if (!down)
          ctx.stderr.write(`lost the server (${visible((err as Error).message, true)}); retrying with backoff\n`);
        down = true;
        // Backing off at most to 5 s (or the interval), so a server that is back is found within one poll.
        delay = Math.min(delay * 2, Math.max(interval, 5_000));
      }
      await Promise.race([new Promise((r) => setTimeout(r, delay)), stop.promise]);
    }
  } finally {
    stop.cancel();
    await client.close();
  }
}
