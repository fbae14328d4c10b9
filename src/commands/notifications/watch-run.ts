import type { Ctx } from '../../context.js';
import { filterNotifications } from '../../core/notifications.js';
import { ShortIds } from '../../core/short-ids.js';
import { CliError, DeadlineError, EXIT } from '../../errors.js';
import { localTime } from '../../output/columns.js';
import { layoutWidth, visible } from '../../output/text.js';
import { say as sayText, writeLines } from '../../output/text-out.js';
import { watchLine } from '../../output/watch-line.js';
import { connect } from '../connect.js';
import type { Opts } from '../shared.js';
import { type FilterFlags, filterOf, notHere } from './filters.js';
import { type Note, newNotifications } from './poll.js';

interface WatchOptions extends Opts, FilterFlags {
  /** Milliseconds between polls. */
  interval: number;
  /** Those from this instant on are printed at the start, as if they had just come. */
  since?: number;
  output?: 'table' | 'ndjson' | 'json';
}

/** Polls the list and prints what is new; the API documents no push, so polling is the honest way. */
export async function watch(ctx: Ctx, opts: WatchOptions): Promise<void> {
  const interval = opts.interval;
  const format = opts.output ?? (ctx.stdout.isTTY ? 'table' : 'ndjson');
  const { client, settings } = await connect(ctx, opts);
  let filter: ReturnType<typeof filterOf>;
  try {
    filter = { ...filterOf(opts, settings.account), since: opts.since };
  } catch (err) {
    await client.close();
    throw err;
  }
  const stop = ctx.waitForSignal(['SIGINT', 'SIGTERM']);
  let stopped = false;
  void stop.promise.then(() => (stopped = true));
  const seen = new Set<string>();
  let first = true;
  let down = false;
  let delay = interval;
  // At a terminal each line fits its width, wide characters counted: the title is cut, the id kept whole.
  const width = ctx.stdout.isTTY ? layoutWidth(ctx.stdout, ctx.env) : Number.POSITIVE_INFINITY;
  // Said whole, wrapped at spaces at a terminal: a cut `lost the server (… connection…` hides why.
  const say = (line: string) => sayText(ctx, line);
  const print = (n: Note, ids: ShortIds) => {
    if (format === 'table') {
      const text = (v: unknown) => visible(v === undefined || v === null ? '' : String(v), true);
      // A long id as its prefix unique among all fetched, as list shows it; in a pipe, whole.
      const id = Number.isFinite(width) ? ids.of(text(n.id)) : text(n.id);
      const line = watchLine(localTime(n.createdAt), [text(n.type), text(n.code), text(n.title)], id, width);
      void writeLines(ctx, [line]);
    } else void writeLines(ctx, [JSON.stringify(n)]);
  };
  try {
    while (!stopped) {
      try {
        const fresh = await newNotifications(client, seen);
        if (down) say('the server is back; watching again');
        down = false;
        delay = interval;
        for (const n of fresh) seen.add(n.id);
        // What was there before we started is history, not news.
        if (!first) {
          const shown = filterNotifications(fresh, filter).reverse();
          const ids = new ShortIds(shown.length > 0 && format === 'table' ? seen : []);
          for (const n of shown) print(n, ids);
        } else {
          // --since replays what came from then on, oldest first, as if it had just come.
          const replay = opts.since === undefined ? [] : filterNotifications(fresh, filter).reverse();
          const ids = new ShortIds(replay.length > 0 && format === 'table' ? seen : []);
          for (const n of replay) print(n, ids);
          if (format === 'table') say('watching for notifications; Ctrl-C to stop');
          // A value no notification has yet is most likely a typo: said once, with the nearest there are.
          if (filterNotifications(fresh, filter).length === 0) for (const line of notHere(fresh, filter)) say(line);
        }
        // Said once what is there is known, so whatever comes after the line is printed.
        first = false;
      } catch (err) {
        // --timeout bounds the whole watch, as kubectl's --request-timeout does.
        if ((err instanceof CliError && err.exitCode === EXIT.auth) || err instanceof DeadlineError) throw err;
        if (!down) say(`lost the server (${visible((err as Error).message, true)}); retrying with backoff`);
        down = true;
        // Backing off at most to 5 s (or the interval), so a server that is back is found within one poll.
        delay = Math.min(delay * 2, Math.max(interval, 5_000));
      }
      const left = ctx.clock.deadline(opts.deadline)?.left() ?? delay;
      await Promise.race([new Promise((r) => setTimeout(r, Math.max(0, Math.min(delay, left)))), stop.promise]);
    }
  } finally {
    stop.cancel();
    await client.close();
  }
}
