// undici's public entry, though it also loads fetch, WebSocket and the cache (a cost of a request
// command's start-up, BENCHMARKS.md): its internal paths are no API, and an upgrade may move them.
import { Pool } from 'undici';
import { type Deadline, LONGEST_TIMER_MS } from '../deadline.js';
import { ApiError, CliError, DeadlineError, EXIT } from '../errors.js';
import type { ListSink } from '../formats/json/array-stream.js';
import { JsonText } from '../formats/json/json-text.js';
import { isRecord } from '../formats/json/record.js';
import { withoutTrailingSlashes } from '../strings.js';
import { answer, listIn, networkError, notARecord, type Peer } from './failure.js';
import { nextPage, PageTrail } from './links.js';
import { redactor } from './redact.js';
import { backoff, errorCode, type Headers, IDEMPOTENT, mayResend, mayRetry, retryAfter } from './retry.js';
import { type Exchange, MAX_HELD_LIST_BYTES, send, streamOnce } from './transport.js';

export { retryAfter } from './retry.js';

interface ClientOptions {
  baseUrl: string;
  token?: string;
  /** The bound of each exchange, its retries and their waits included (--timeout, or 30 s). */
  timeoutMs: number;
  /** The whole command's deadline (--timeout), when one was given: every exchange and wait ends by it. */
  deadline?: Deadline;
  /** Extra attempts for requests that may be repeated (default 3). */
  retries?: number;
  connections?: number;
  trace?: (line: string) => void;
  /** Waits between attempts; tests of retry timing are not our business, so it is injectable. */
  sleep?: (ms: number) => Promise<void>;
}

/** What one attempt gave back: status and headers, the body when it was read whole, and its size. */
interface Attempt {
  status: number;
  headers: Headers;
  text?: string;
  bytes: number;
  /** Records of a list handed on as they came. */
  records?: number;
}

/** The only module that speaks HTTP: base URL, token, keep-alive, deadline, retries, typed errors. */
export class ApiClient {
  private readonly pool: Pool;
  private readonly origin: string;
  private readonly prefix: string;
  private readonly retries: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly peer: Peer;
  /** The most of a list that is read to be held whole (a YAML list, --query): pass it to stream(). */
  readonly heldLimit = MAX_HELD_LIST_BYTES;

  /** The command's time left, or Infinity without a deadline. */
  private readonly left: () => number;

  /** Request headers, made once: an import sends thousands of requests. */
  private readonly headers: Exchange['headers'];

  constructor(private readonly o: ClientOptions) {
    const read: Record<string, string> = {
      accept: 'application/json',
      ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
    };
    this.headers = { read, write: { ...read, 'content-type': 'application/json' } };
    let url: URL;
    try {
      url = new URL(o.baseUrl);
    } catch {
      throw new CliError(
        `the base URL ${o.baseUrl} is not a valid URL`,
        EXIT.usage,
        'use a form like http://127.0.0.1:4010',
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new CliError(`the base URL ${o.baseUrl} must start with http:// or https://`, EXIT.usage);
    }
    this.origin = url.origin;
    this.prefix = withoutTrailingSlashes(url.pathname);
    this.retries = o.retries ?? 3;
    this.sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    const deadline = o.deadline;
    this.left = deadline ? () => deadline.left() : () => Number.POSITIVE_INFINITY;
    this.peer = { baseUrl: this.baseUrl, timeoutMs: o.timeoutMs, redact: redactor(o.token) };
    // The bounds of a request, all of them (docs/contributing.md, "Time"):
    // - the command's deadline (--timeout, when given): nothing begins past it, and it cuts an attempt;
    // - the exchange's limit (`timeoutMs`: --timeout, or 30 s): from its first attempt to its answer, retries
    //   and waits included; a list's runs to its first record, then from each record to the next.
    // Each attempt gets one AbortSignal of the two (transport.ts). undici's own timers are set to the same
    // limit, as a backstop that never fires first: headers and the idle time between body chunks (not
    // counted while stdout holds a list back); a connection at most 10 s to open, as one not opened by then
    // was surely not sent and may be tried again; idle connections are kept 10 s, no request's bound.
    const limit = Math.min(o.timeoutMs, LONGEST_TIMER_MS);
    this.pool = new Pool(this.origin, {
      connections: o.connections ?? 16,
      keepAliveTimeout: 10_000,
      headersTimeout: limit,
      bodyTimeout: limit,
      connectTimeout: Math.min(limit, 10_000),
    });
  }

  get baseUrl(): string {
    return this.origin + this.prefix;
  }

  /** One request, retried where that is safe, within its deadline; an answer over 64 MiB is refused. */
  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const payload = body === undefined ? undefined : body instanceof JsonText ? body.text : JSON.stringify(body);
    const target = this.prefix + path;
    const r = await this.exchange(method, target, path, IDEMPOTENT.has(method), (ex) =>
      send(ex, method, target, payload),
    );
    return answer<T>(this.peer, r.status, r.headers, r.text ?? '', method, path);
  }

  /**
   * GETs a list and hands each record to `onRecord` as it arrives, parsed a piece of the answer at a time, so
   * memory stays flat however long the list. `onRecord` returns false to pause the answer until `drained()`
   * resolves (backpressure from stdout). A top-level array is a list, and so is an object whose only array
   * property holds the records (`{"items": [...]}`, the seed's `{"diagnosticAnalyzers": [...]}`). When an
   * answer carries a `Link: <…>; rel="next"` header (RFC 8288) on the same origin, the next page follows,
   * and the pages read as one list.
   */
  async stream(path: string, sink: ListSink, maxBytes = Number.POSITIVE_INFINITY): Promise<void> {
    let page: string | undefined = this.prefix + path;
    const trail = new PageTrail(path);
    let bytes = 0;
    let written = 0;
    while (page !== undefined) {
      const target: string = page;
      const before = written;
      const once = (ex: Exchange) => streamOnce(ex, target, sink, maxBytes - bytes);
      const r = await this.exchange('GET', target, path, true, once, before);
      bytes += r.bytes;
      written += r.records ?? 0;
      if (r.text !== undefined) {
        // Not a streamed array: an error, or a list in a wrapper, read whole (at most 64 MiB).
        const value = answer<unknown>(this.peer, r.status, r.headers, r.text, 'GET', path, true);
        for (const rec of listIn(value, path)) {
          written++;
          if (isRecord(rec)) {
            sink.record(rec);
            continue;
          }
          // The records handed on before it are written, as a streamed list's are.
          sink.batchEnd();
          throw notARecord(this.peer, path, written, rec);
        }
        sink.batchEnd();
      }
      if (sink.done?.()) return;
      page = trail.follow(target, written - before, nextPage(r.headers.link, this.origin, target, path));
    }
  }

  /** Collects a list (see stream); only for callers that need it whole: a table, a plan, completion. */
  async list<T = unknown>(path: string): Promise<T[]> {
    const out: T[] = [];
    const sink: ListSink = {
      record: (rec) => void out.push(rec as T),
      batchEnd: () => true,
      drained: async () => undefined,
    };
    await this.stream(path, sink, MAX_HELD_LIST_BYTES);
    return out;
  }

  async close(): Promise<void> {
    // Past the deadline a request may still wait for a connection (aborted unsent when it gets one):
    // closing would wait for that connection, up to 10 s more, so what is left is dropped.
    await (this.left() <= 0 ? this.pool.destroy() : this.pool.close());
  }

  /**
   * The one retry loop, for a record and a list alike: each attempt traced, sent again where that is
   * safe, and all of it within the exchange's bound and the command's deadline: they bound every attempt
   * and every wait between them. A wait that would end past either is not begun: the last answer or
   * failure stands, and a Retry-After past it ends the exchange at once, saying how long the server asked
   * to wait. Past the command's deadline nothing new begins; `before` is how many records of a list were
   * handed on by earlier pages.
   */
  private async exchange(
    method: string,
    target: string,
    path: string,
    mayRepeat: boolean,
    once: (ex: Exchange) => Promise<Attempt>,
    before = 0,
  ): Promise<Attempt> {
    const url = this.origin + target;
    if (this.left() <= 0) throw this.late(before, false);
    const end = performance.now() + this.o.timeoutMs;
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      // Trace lines are built only when asked for: an import makes thousands of requests.
      if (this.o.trace) this.trace(`→ ${method} ${url}${this.o.token ? ' (authorization: Bearer [redacted])' : ''}`);
      let r: Attempt;
      try {
        r = await once({
          pool: this.pool,
          headers: this.headers,
          ms: Math.max(1, end - started),
          gapMs: this.o.timeoutMs,
          left: this.left,
        });
      } catch (err) {
        if (err instanceof CliError) throw err;
        const code = errorCode(err);
        if (code === 'CLINADMIN_READER') throw (err as { cause: unknown }).cause;
        // A list cut off after records were handed on cannot be repeated without repeating them.
        const records = (err as { records?: number }).records ?? 0;
        const ms = Math.round(performance.now() - started);
        if (this.o.trace) this.trace(`✗ ${method} ${url} failed after ${ms} ms: ${code ?? (err as Error).message}`);
        if (code === 'CLINADMIN_COMMAND_DEADLINE') throw this.late(before + records);
        const again = mayResend(code, mayRepeat, records) && attempt < this.retries;
        if (again && (await this.wait(backoff(attempt), end))) continue;
        // Earlier pages count too: what was written of the list is incomplete however many came before.
        throw networkError(this.peer, err, code, path, before + records);
      }
      if (this.o.trace) {
        this.trace(`← ${r.status} ${method} ${url} (${Math.round(performance.now() - started)} ms, ${r.bytes} B)`);
        // --verbose shows a refusal's whole body: the server may say more than the sentence shown.
        if (r.status >= 400 && r.text !== undefined) this.trace(`  body: ${r.text}`);
      }
      if (r.text === undefined || !mayRetry(r.status, r.headers, mayRepeat, attempt, this.retries)) return r;
      const asked = retryAfter(r.headers['retry-after']);
      if (asked !== undefined && performance.now() + asked > this.until(end)) {
        const bound = this.o.deadline
          ? `the --timeout of ${this.o.deadline.ms / 1000} s`
          : `the ${this.o.timeoutMs / 1000} s a request may take`;
        throw new ApiError(
          `the API answered ${method} ${path} with ${r.status} and asked to wait ${Math.ceil(asked / 1000)} s ` +
            `(Retry-After), past ${bound}; it was not sent again`,
          r.status,
          [],
          'try again later, or raise --timeout',
        );
      }
      if (!(await this.wait(asked ?? backoff(attempt), end))) return r;
    }
  }

  /** The sooner of an exchange's end and the command's deadline. */
  private until(end: number): number {
    return Math.min(end, performance.now() + this.left());
  }

  /** Waits before another attempt, unless the wait would end past `until(end)` (then false, at once). */
  private async wait(ms: number, end: number): Promise<boolean> {
    if (performance.now() + ms > this.until(end)) return false;
    await this.sleep(ms);
    return true;
  }

  /** The command's deadline passed: with a request in flight (its outcome unknown), or before one began. */
  private late(records: number, inFlight = true): DeadlineError {
    return new DeadlineError((this.o.deadline?.ms ?? 0) / 1000, records, inFlight);
  }

  private trace(line: string): void {
    this.o.trace?.(this.peer.redact(line));
  }
}
