import { type ChildProcess, fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { ChildNews, ChildStart, VerbAnswer } from './protocol.js';
import { ServeError } from './sandbox.js';

const STOP_MS = 30_000;

/** serve's process as the test process holds it: started, asked for verbs over its channel, stopped. */
export class ServeChild {
  readonly child: ChildProcess;
  private said = '';
  private next = 0;
  private readonly calls = new Map<number, { resolve: (a: VerbAnswer) => void; reject: (e: Error) => void }>();
  private readonly exited: Promise<number>;
  private stopping?: Promise<void>;
  /** The folder is gone once the child has exited: a child killed (SIGKILL) cannot remove it itself. */
  private removed: Promise<unknown> = Promise.resolve();

  constructor() {
    // No execArgv of the test runner's (its loaders, --test): the child is the shipped serve and nothing else.
    this.child = fork(join(__dirname, 'testing-serve.cjs'), [], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      execArgv: [],
    });
    this.child.stderr?.on('data', (d: Buffer) => {
      this.said = (this.said + d.toString()).slice(-16_384);
    });
    this.exited = new Promise<number>((done) =>
      this.child.once('exit', (code, signal) => {
        const stopped = new ServeError(this.lastWords(`clinadmin serve stopped (exit ${code ?? signal})`), 1);
        for (const call of this.calls.values()) call.reject(stopped);
        this.calls.clear();
        done(code ?? 128 + (constants.signals[signal!] ?? 0));
      }),
    );
    this.child.on('message', (news: ChildNews) => {
      if (!('id' in news)) return;
      this.calls.get(news.id)?.resolve(news);
      this.calls.delete(news.id);
      this.hold();
    });
  }

  /** What happened, then what serve said last on stderr, which says why. */
  private lastWords(what: string) {
    const said = this.said.trim();
    return said === '' ? what : `${what}; it said:\n${said}`;
  }

  /** The channel holds the test process open only while a verb waits for its answer. */
  private hold() {
    if (this.calls.size > 0) this.child.channel?.ref();
    else this.child.channel?.unref();
  }

  /**
   * Makes the child's temporary folder, sends the start and waits for the URL, or why serve stopped; a child
   * silent for `ms` is killed. A start that fails has no child and no folder left when it rejects.
   */
  async start(start: Omit<ChildStart, 'folder'>, ms: number): Promise<{ ready: string; dataFile: string }> {
    const folder = await mkdtemp(join(tmpdir(), 'clinadmin-testing-')).catch((err: unknown) => {
      this.child.kill('SIGKILL');
      throw err;
    });
    this.removed = this.exited.then(() => rm(folder, { recursive: true, force: true }));
    let timer: NodeJS.Timeout | undefined;
    const news = new Promise<ChildNews>((done) => this.child.once('message', done));
    const late = new Promise<'late'>((done) => {
      timer = setTimeout(() => done('late'), ms);
    });
    this.child.send({ ...start, folder });
    try {
      const first = await Promise.race([news, this.exited, late]);
      if (first === 'late') {
        this.child.kill('SIGKILL');
        await this.removed;
        throw new ServeError(`clinadmin serve did not answer within ${ms} ms`, 1);
      }
      if (typeof first === 'number') {
        await this.removed;
        throw new ServeError(this.lastWords(`clinadmin serve stopped (exit ${first})`), first);
      }
      if ('failed' in first) {
        await this.removed;
        throw new ServeError(first.stderr.trim() || `clinadmin serve stopped (exit ${first.failed})`, first.failed);
      }
      if (!('ready' in first)) throw new ServeError('clinadmin serve answered before it started', 1);
      // Neither the child nor its channel holds the test process open: a suite that forgets close() still
      // ends, and the child, losing its channel, stops itself.
      this.child.unref();
      this.hold();
      (this.child.stderr as (Readable & { unref?: () => void }) | null)?.unref?.();
      return first;
    } finally {
      clearTimeout(timer);
    }
  }

  /** One `clinadmin sandbox` verb, run by the child: its exit code and what it wrote. */
  call(argv: string[], stdin?: string): Promise<VerbAnswer> {
    if (!this.child.connected) return Promise.reject(new ServeError(this.lastWords('clinadmin serve has stopped'), 1));
    return new Promise((resolve, reject) => {
      const id = this.next++;
      this.calls.set(id, { resolve, reject });
      this.hold();
      this.child.send({ id, argv, ...(stdin === undefined ? {} : { stdin }) });
    });
  }

  /** SIGTERM, then the exit: serve saves its data and the child removes its folder; past STOP_MS it is killed. */
  stop(): Promise<void> {
    this.stopping ??= this.stopOnce();
    return this.stopping;
  }

  private async stopOnce() {
    // The exit is awaited: the child's handle holds this process open until it comes.
    this.child.ref();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const killed = new Promise<void>((done) => {
      timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        done();
      }, STOP_MS);
    });
    const code = await Promise.race([this.exited, killed.then(() => this.exited)]);
    clearTimeout(timer);
    await this.removed;
    if (code !== 0) throw new ServeError(this.lastWords(`clinadmin serve stopped with exit ${code}`), code);
  }
}
