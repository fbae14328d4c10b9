import type { Ctx } from '../../context.js';
import { filterNotifications, type NotificationLike } from '../../core/notifications.js';
import { CliError, EXIT } from '../../errors.js';
import { leadingId } from '../../json/array-stream.js';
import { localTime } from '../../output/columns.js';
import { visible } from '../../output/text.js';
import { notifications } from '../../resources/index.js';
import { connect } from '../connect.js';
import type { Opts } from '../shared.js';

export interface WatchOptions extends Opts {
  type?: string;
  code?: string;
  /** Milliseconds between polls. */
  interval: number;
  output?: 'table' | 'ndjson' | 'json';
}

type Note = NotificationLike & Record<string, unknown>;

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
      ctx.stdout.write(`${visible(line, true)}\n`);
    } else ctx.stdout.write(`${JSON.stringify(n)}\n`);
  };
  try {
    if (format === 'table') ctx.stderr.write('watching for notifications; Ctrl-C to stop\n');
    while (!stopped) {
      try {
        // Only what is new is kept: the rest of a long list is let go as it is read, so it dies young and
        // costs the garbage collector little. Ids join `seen` once the whole list has come.
        const fresh: Note[] = [];
        await client.stream(notifications.path, {
          record: (rec) => {
            if (!seen.has((rec as Note).id)) fresh.push(rec as Note);
          },
          // A record seen before is known by the id it opens with, and then not even parsed (when the
          // server writes the id first, as serve does; a record that repeats its id key would be misread).
          known: (bytes) => {
            const id = leadingId(bytes);
            return id !== undefined && seen.has(id);
          },
          batchEnd: () => true,
          drained: async () => undefined,
        });
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
        delay = Math.min(delay * 2, 30_000);
      }
      await Promise.race([new Promise((r) => setTimeout(r, delay)), stop.promise]);
    }
  } finally {
    stop.cancel();
    await client.close();
  }
}
