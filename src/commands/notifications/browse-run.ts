import { emitKeypressEvents } from 'node:readline';
import type { ReadStream } from 'node:tty';
import type { ApiClient } from '../../api/client.js';
import type { Ctx } from '../../context.js';
import type { NotificationFilter } from '../../core/notifications.js';
import { CliError, EXIT, UsageError } from '../../errors.js';
import { Browse, type BrowseAction, type BrowseNote } from '../../output/browse-model.js';
import { browseFrame } from '../../output/browse-view.js';
import { control, drawFrame } from '../../output/terminal.js';
import { visible } from '../../output/text.js';
import { colorEnabled, theme } from '../../output/theme.js';
import { notifications } from '../../resources/index.js';
import { connect } from '../connect.js';
import { enc, type Opts } from '../shared.js';
import { type FilterFlags, filterOf, notHere, windowOf } from './filters.js';
import { newNotifications } from './poll.js';

interface BrowseOptions extends Opts, FilterFlags {
  /** Milliseconds between polls. */
  interval: number;
  since?: number;
  until?: number;
}

/** A full-screen reader: the list, the selected one's detail, new ones by polling; see browse.ts for keys. */
export async function browse(ctx: Ctx, opts: BrowseOptions): Promise<number> {
  const input = ctx.stdin as ReadStream;
  const out = ctx.stdout as NodeJS.WriteStream;
  if (!input.isTTY || !out.isTTY || typeof input.setRawMode !== 'function') {
    throw new UsageError(
      'notifications browse needs a terminal',
      'in a script, use `clinadmin notifications list` (or `notifications watch` to follow new ones)',
    );
  }
  const window = windowOf(opts);
  // A full-screen reader is a person's time throughout, as a prompt is: --timeout bounds each request alone.
  const { client, settings } = await connect(ctx, { ...opts, deadline: undefined });
  let filter: NotificationFilter;
  try {
    filter = { ...filterOf(opts, settings.account), ...window };
  } catch (err) {
    await client.close();
    throw err;
  }
  const t = await theme(colorEnabled(ctx, out, opts.color));
  const b = new Browse(settings.account, opts.code, {
    type: opts.type,
    unseen: opts.unseen,
    seenBy: filter.seenBy,
    unseenBy: opts.unseenBy,
    ...window,
  });
  const draw = () => {
    drawFrame(out, browseFrame(b, out.columns || 80, out.rows || 24, t));
  };
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    input.setRawMode(false);
    input.pause();
    // The cursor shown and the screen the shell had, whatever ended the browse.
    control(out, 'leaveScreen');
  };
  process.once('exit', restore);
  // The alternate screen and a hidden cursor while browsing.
  control(out, 'enterScreen');
  input.setRawMode(true);
  emitKeypressEvents(input);
  input.resume();
  const signal = ctx.waitForSignal(['SIGINT', 'SIGTERM', 'SIGHUP']);
  const session = new Session(client, b, draw, opts.interval);
  try {
    draw();
    const done = new Promise<number>((resolve, reject) => {
      const onKey = (typed: string | undefined, key: { name?: string; ctrl?: boolean; sequence?: string }) => {
        // A printable character comes as itself (`G`, `/`, a space); other keys by name (up, return, escape).
        const printable = typed !== undefined && typed.length === 1 && typed >= ' ' && typed !== '\u007f';
        const name = key?.ctrl ? (key.name ?? '') : printable ? typed : (key?.name ?? '');
        const action = b.key(name, Boolean(key?.ctrl));
        if (action === 'quit') return resolve(0);
        draw();
        if (action) session.act(action).catch(reject);
      };
      input.on('keypress', onKey);
      out.on('resize', draw);
      void signal.promise.then((s) => resolve(s === 'SIGINT' ? EXIT.interrupted : 128 + (s === 'SIGTERM' ? 15 : 1)));
      session.start().catch(reject);
    });
    return await done;
  } finally {
    session.stop();
    signal.cancel();
    out.removeListener('resize', draw);
    input.removeAllListeners('keypress');
    restore();
    process.removeListener('exit', restore);
    await client.close();
  }
}

/** The server side of a browse: the first load, polling for new ones, opening one, reloading. */
class Session {
  private seen = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private down = false;
  private delay: number;

  constructor(
    private client: ApiClient,
    private b: Browse,
    private draw: () => void,
    private interval: number,
  ) {
    this.delay = interval;
  }

  async start(): Promise<void> {
    let last = 0;
    this.b.status = 'loading…';
    const first = await this.attempt(() =>
      newNotifications(this.client, this.seen, (count) => {
        // The count as the list streams in, a few times a second.
        if (performance.now() - last < 100) return;
        last = performance.now();
        this.b.status = `loading… ${count.toLocaleString('en')}`;
        this.draw();
      }),
    );
    if (first) {
      this.b.load(first);
      for (const n of first) this.seen.add(n.id);
      // A typo in a filter's value reads as a typo, not as "none were sent" (as list says it).
      const { type, code, seenBy } = this.b;
      this.b.status = this.b.shown.length === 0 ? notHere(first, { type, code, seenBy }).join('; ') : '';
    }
    this.draw();
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.poll(), this.delay);
  }

  private async poll(): Promise<void> {
    const fresh = await this.attempt(() => newNotifications(this.client, this.seen));
    if (fresh && this.seen.size === 0 && this.b.total === 0) this.b.load(fresh);
    else if (fresh && fresh.length > 0) {
      this.b.add(fresh);
      this.b.status = `${fresh.length} new`;
    }
    for (const n of fresh ?? []) this.seen.add(n.id);
    if (!this.stopped) this.draw();
    this.schedule();
  }

  /** Runs a request; a server that went away is said in the status line (as watch says it) and retried. */
  private async attempt<T>(request: () => Promise<T>): Promise<T | undefined> {
    try {
      const value = await request();
      if (this.down) this.b.status = 'the server is back';
      this.down = false;
      this.delay = this.interval;
      return value;
    } catch (err) {
      if (err instanceof CliError && err.exitCode === EXIT.auth) throw err;
      if (err instanceof CliError && err.exitCode === EXIT.notFound) {
        this.b.status = visible(err.message, true);
        return undefined;
      }
      this.b.status = `lost the server (${visible((err as Error).message, true)}); retrying with backoff`;
      this.down = true;
      // Backing off at most to 5 s (or the interval), so a server that is back is found within one poll.
      this.delay = Math.min(this.delay * 2, Math.max(this.interval, 5_000));
      return undefined;
    }
  }

  async act(action: Exclude<BrowseAction, 'quit' | undefined>): Promise<void> {
    if (action === 'refresh') {
      this.b.status = 'refreshing…';
      this.draw();
      const all = await this.attempt(() => this.client.list<BrowseNote>(notifications.path));
      if (all) {
        this.b.load(all);
        this.seen = new Set(all.map((n) => n.id));
        this.b.status = `refreshed: ${all.length.toLocaleString('en')} notifications`;
      }
    } else {
      const id = this.b.current?.id;
      if (id === undefined) return;
      // Reading one marks it seen by this account: only the one the person opens is ever fetched alone.
      const n = await this.attempt(() => this.client.request<BrowseNote>('GET', `${notifications.path}/${enc(id)}`));
      if (n) {
        this.b.replace(n);
        this.b.status = `opened ${visible(id, true)}`;
      }
    }
    if (!this.stopped) this.draw();
  }
}
