// undici's public entry, though it also loads fetch, WebSocket and the cache (~30 ms of a request
// command's start-up, BENCHMARKS.md): its internal paths are no API, and an upgrade may move them.
import { Pool } from 'undici';
import { ApiError, AuthError, CliError, EXIT, NotFoundError } from '../errors.js';
import { JsonArraySplitter, type ListSink } from '../json/array-stream.js';
import { JsonText } from '../json/json-text.js';
import { readRefusal } from './refusal.js';

export interface ClientOptions {
  baseUrl: string;
  token?: string;
  timeoutMs: number;
  /** Extra attempts for requests that may be repeated (default 3). */
  retries?: number;
  connections?: number;
  trace?: (line: string) => void;
  /** Waits between attempts; tests of retry timing are not our business, so it is injectable. */
  sleep?: (ms: number) => Promise<void>;
}

type Headers = Record<string, string | string[] | undefined>;

const RETRY_STATUS = new Set([429, 502, 503, 504]);
/** Attempts after a 429 or a 503 with Retry-After: the server said it did nothing and when to come back. */
const REFUSED_RETRIES = 10;
/** The largest answer about one record (or a write) that is read: more is a peer gone wrong. */
const MAX_RECORD_BYTES = 64 * 1024 * 1024;
/** The largest list held whole (a table, YAML, --query, a plan): past it, only the streaming formats go on. */
const MAX_HELD_LIST_BYTES = 256 * 1024 * 1024;
/** Errors raised before a connection existed: the request surely was not sent. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const CONNECTION = new Set([...NOT_SENT, 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ETIMEDOUT']);

/** The only module that speaks HTTP: base URL, token, keep-alive, timeout, retries, typed errors. */
export class ApiClient {
  private readonly pool: Pool;
  private readonly origin: string;
  private readonly prefix: string;
  private readonly retries: number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** The most of a list that is read to be held whole (a YAML list, --query): pass it to stream(). */
  readonly heldLimit = MAX_HELD_LIST_BYTES;

  /** Request headers, made once: an import sends thousands of requests. */
  private readonly headers: { read: Record<string, string>; write: Record<string, string> };

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
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.retries = o.retries ?? 3;
    this.sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.pool = new Pool(this.origin, {
      connections: o.connections ?? 16,
      keepAliveTimeout: 10_000,
      headersTimeout: o.timeoutMs,
      bodyTimeout: o.timeoutMs,
      connectTimeout: Math.min(o.timeoutMs, 10_000),
      // undici 8 speaks HTTP/2 to a TLS server that offers it; the caps and deadlines here are tested over 1.1.
      allowH2: false,
    });
  }

  get baseUrl(): string {
    return this.origin + this.prefix;
  }

  /**
   * One request, retried where that is safe. `--timeout` is a deadline for the whole exchange, and an answer
   * over 64 MiB is refused: one record has no business being larger. Lists go through stream().
   */
  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const url = this.origin + this.prefix + path;
    const payload = body === undefined ? undefined : body instanceof JsonText ? body.text : JSON.stringify(body);
    const mayRepeat = method !== 'POST';
    for (let attempt = 0; ; attempt++) {
      const started = Date.now();
      // Trace lines are built only when asked for: an import makes thousands of requests.
      if (this.o.trace) this.trace(`→ ${method} ${url}${this.o.token ? ' (authorization: Bearer [redacted])' : ''}`);
      let status: number;
      let headers: Headers;
      let text: string;
      try {
        ({ status, headers, text } = await this.send(method, this.prefix + path, payload));
      } catch (err) {
        const code = errorCode(err);
        const ms = Date.now() - started;
        if (this.o.trace) this.trace(`✗ ${method} ${url} failed after ${ms} ms: ${code ?? (err as Error).message}`);
        const repeatable = (mayRepeat && CONNECTION.has(code ?? '')) || NOT_SENT.has(code ?? '');
        if (repeatable && attempt < this.retries) {
          await this.sleep(backoff(attempt));
          continue;
        }
        throw this.networkError(err, code);
      }
      if (this.o.trace) {
        this.trace(`← ${status} ${method} ${url} (${Date.now() - started} ms, ${Buffer.byteLength(text)} B)`);
        // --verbose shows a refusal's whole body: the server may say more than the sentence shown.
        if (status >= 400) this.trace(`  body: ${text}`);
      }
      if (this.mayRetry(status, headers, mayRepeat, attempt)) {
        await this.sleep(retryAfter(headers['retry-after']) ?? backoff(attempt));
        continue;
      }
      return this.answer<T>(status, headers, text, method, path);
    }
  }

  /**
   * Whether an answer is worth sending the request again. 429, and 503 with Retry-After, say the
   * request was refused unprocessed (RFC 6585, RFC 9110 §15.6.4: "come back later"), so even a POST is
   * sent again, and a server shedding load gets more patience (10 attempts, each after its Retry-After).
   * A 502, 504 or a bare 503 may have been processed: only a request that may be repeated is.
   */
  private mayRetry(status: number, headers: Headers, mayRepeat: boolean, attempt: number): boolean {
    const refused = status === 429 || (status === 503 && headers['retry-after'] !== undefined);
    if (refused) return attempt < REFUSED_RETRIES;
    return RETRY_STATUS.has(status) && mayRepeat && attempt < this.retries;
  }

  /**
   * GETs a list and hands each record to `onRecord` as it arrives, parsed one element at a time, so memory
   * stays flat however long the list. `onRecord` returns false to pause the answer until `drained()`
   * resolves (backpressure from stdout). A top-level array is a list, and so is an object whose only array
   * property holds the records (`{"items": [...]}`, the seed's `{"diagnosticAnalyzers": [...]}`). When an
   * answer carries a `Link: <…>; rel="next"` header (RFC 8288) on the same origin, the next page follows,
   * and the pages read as one list.
   */
  async stream(path: string, sink: ListSink, maxBytes = Number.POSITIVE_INFINITY): Promise<void> {
    let page: string | undefined = this.prefix + path;
    const seen = new Set<string>();
    let bytes = 0;
    while (page !== undefined) {
      seen.add(page);
      const r = await this.streamPage(page, path, sink, maxBytes - bytes);
      bytes += r.bytes;
      page = this.nextPage(r.headers.link, page, path);
      if (page !== undefined && seen.has(page)) {
        throw new ApiError(`the API's next-page links for GET ${path} go round in a circle (at ${page})`);
      }
    }
  }

  /** The path of the next page from a Link header, or undefined on the last page. */
  private nextPage(link: string | string[] | undefined, current: string, path: string): string | undefined {
    const value = Array.isArray(link) ? link.join(', ') : link;
    if (!value) return undefined;
    for (const m of value.matchAll(/<([^>]*)>([^,]*)/g)) {
      const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(m[2])?.[1] ?? '';
      if (!rel.toLowerCase().split(/\s+/).includes('next')) continue;
      const url = new URL(m[1], this.origin + current);
      if (url.origin !== this.origin) {
        throw new ApiError(
          `the API's next page of GET ${path} is on another origin (${url.origin}); it was not followed, ` +
            'so the list is incomplete',
        );
      }
      return url.pathname + url.search;
    }
    return undefined;
  }

  /** One page of a list (see stream): `page` is what is requested, `path` names the list in messages. */
  private async streamPage(
    page: string,
    path: string,
    sink: ListSink,
    maxBytes: number,
  ): Promise<{ headers: Headers; bytes: number }> {
    for (let attempt = 0; ; attempt++) {
      const started = Date.now();
      const url = this.origin + page;
      if (this.o.trace) this.trace(`→ GET ${url}${this.o.token ? ' (authorization: Bearer [redacted])' : ''}`);
      let r: { status: number; headers: Headers; text?: string; records: number; bytes: number };
      try {
        r = await this.streamOnce(page, sink, maxBytes);
      } catch (err) {
        if (err instanceof CliError) throw err;
        const code = errorCode(err);
        if (this.o.trace)
          this.trace(`✗ GET ${url} failed after ${Date.now() - started} ms: ${code ?? (err as Error).message}`);
        // A list cut off after records were handed on cannot be repeated without repeating them.
        const records = (err as { records?: number }).records ?? 0;
        if (CONNECTION.has(code ?? '') && records === 0 && attempt < this.retries) {
          await this.sleep(backoff(attempt));
          continue;
        }
        if (code === 'CLINADMIN_TRUNCATED') {
          throw new ApiError(
            `the API answered GET ${path} with a truncated or malformed JSON body`,
            undefined,
            [],
            records > 0
              ? `${records} records were written before it; run the command again`
              : 'check that the base URL points at the API, not a web page',
          );
        }
        if (CONNECTION.has(code ?? '') && records > 0) {
          throw new ApiError(
            `the connection to ${this.baseUrl} broke after ${records} records of the list; ` +
              'what was written is incomplete',
            undefined,
            [],
            'run the command again',
          );
        }
        throw this.networkError(err, code);
      }
      if (this.o.trace) {
        this.trace(`← ${r.status} GET ${url} (${Date.now() - started} ms, ${r.bytes} B)`);
        if (r.status >= 400 && r.text !== undefined) this.trace(`  body: ${r.text}`);
      }
      if (r.text === undefined) return r;
      if (this.mayRetry(r.status, r.headers, true, attempt)) {
        await this.sleep(retryAfter(r.headers['retry-after']) ?? backoff(attempt));
        continue;
      }
      // Not a streamed array: an error, or a list in a wrapper, read whole (at most 64 MiB).
      const value = this.answer<unknown>(r.status, r.headers, r.text, 'GET', path, true);
      for (const rec of listIn(value, path)) sink.record(rec);
      sink.batchEnd();
      return r;
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

  private streamOnce(
    path: string,
    sink: ListSink,
    maxBytes: number,
  ): Promise<{ status: number; headers: Headers; text?: string; records: number; bytes: number }> {
    return new Promise((resolve, reject) => {
      let status = 0;
      let headers: Headers = {};
      let records = 0;
      let splitter: JsonArraySplitter | undefined;
      const other: Buffer[] = [];
      let size = 0;
      let bytes = 0;
      const fail = (err: Error) => reject(Object.assign(err, { records }));
      const deadline = setTimeout(
        () => abort?.(Object.assign(new Error('deadline'), { code: 'CLINADMIN_DEADLINE' })),
        this.o.timeoutMs,
      );
      let abort: ((reason: Error) => void) | undefined;
      this.pool.dispatch(
        { path, method: 'GET', headers: this.headers.read },
        {
          onRequestStart(controller) {
            abort = (reason) => controller.abort(reason);
          },
          onResponseStart(_c, statusCode, h) {
            status = statusCode;
            headers = h as Headers;
            clearTimeout(deadline);
            if (status >= 200 && status < 300) splitter = new JsonArraySplitter();
          },
          onResponseData(controller, chunk) {
            bytes += chunk.length;
            if (bytes > maxBytes) {
              controller.abort(Object.assign(new Error('too large'), { code: 'CLINADMIN_LIST_TOO_LARGE' }));
              return;
            }
            if (!splitter) {
              size += chunk.length;
              if (size > MAX_RECORD_BYTES) {
                controller.abort(Object.assign(new Error('too large'), { code: 'CLINADMIN_TOO_LARGE' }));
                return;
              }
              other.push(chunk);
              return;
            }
            const elements = splitter.pushBytes(chunk);
            // One element, or a body that is not an array, is held whole until it ends: the cap of one record.
            if (splitter.heldBytes > MAX_RECORD_BYTES) {
              controller.abort(Object.assign(new Error('too large'), { code: 'CLINADMIN_TOO_LARGE' }));
              return;
            }
            const plain = splitter.plain;
            for (let k = 0; k < elements.length; k++) {
              records++;
              if (plain[k] && sink.known?.(elements[k])) continue;
              // A plain record goes on as the bytes it came in, where the sink can take them (-o ndjson).
              if (sink.raw && plain[k]) {
                sink.raw(elements[k]);
                continue;
              }
              let rec: unknown;
              try {
                rec = JSON.parse(elements[k].toString('utf8'));
              } catch {
                controller.abort(Object.assign(new Error('malformed'), { code: 'CLINADMIN_MALFORMED' }));
                return;
              }
              sink.record(rec);
            }
            if (!sink.batchEnd()) {
              controller.pause();
              void sink.drained().then(() => controller.resume());
            }
          },
          onResponseEnd() {
            clearTimeout(deadline);
            if (!splitter) {
              return resolve({ status, headers, text: Buffer.concat(other).toString('utf8'), records, bytes });
            }
            const end = splitter.end();
            if (end.complete) return resolve({ status, headers, records, bytes });
            if (end.text !== undefined) {
              if (Buffer.byteLength(end.text) > MAX_RECORD_BYTES) {
                return fail(Object.assign(new Error('too large'), { code: 'CLINADMIN_TOO_LARGE' }));
              }
              return resolve({ status, headers, text: end.text, records, bytes });
            }
            fail(Object.assign(new Error('truncated'), { code: 'CLINADMIN_TRUNCATED' }));
          },
          onResponseError(_c, err) {
            clearTimeout(deadline);
            fail(err);
          },
        },
      );
    });
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  /**
   * One exchange through undici's handler interface, the body gathered as bytes: its stream-based
   * request() costs about a third more CPU per request, which an import of thousands pays in full.
   */
  private send(
    method: string,
    path: string,
    body: string | undefined,
  ): Promise<{ status: number; headers: Headers; text: string }> {
    return new Promise((resolve, reject) => {
      let status = 0;
      let headers: Headers = {};
      const chunks: Buffer[] = [];
      let size = 0;
      let abort: ((reason: Error) => void) | undefined;
      // A peer that sends a byte a second never trips an idle timeout: the whole exchange has a deadline.
      const deadline = setTimeout(
        () => abort?.(Object.assign(new Error('deadline'), { code: 'CLINADMIN_DEADLINE' })),
        this.o.timeoutMs,
      );
      const settle = () => clearTimeout(deadline);
      this.pool.dispatch(
        { path, method: method as 'GET', headers: body === undefined ? this.headers.read : this.headers.write, body },
        {
          onRequestStart(controller) {
            abort = (reason) => controller.abort(reason);
          },
          onResponseStart(_c, statusCode, h) {
            status = statusCode;
            headers = h as Headers;
          },
          onResponseData(controller, chunk) {
            size += chunk.length;
            if (size > MAX_RECORD_BYTES) {
              controller.abort(Object.assign(new Error('too large'), { code: 'CLINADMIN_TOO_LARGE' }));
              return;
            }
            chunks.push(chunk);
          },
          onResponseEnd() {
            settle();
            resolve({
              status,
              headers,
              text: (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8'),
            });
          },
          onResponseError(_c, err) {
            settle();
            reject(err);
          },
        },
      );
    });
  }

  private trace(line: string): void {
    this.o.trace?.(this.redact(line));
  }

  private answer<T>(status: number, headers: Headers, text: string, method: string, path: string, list = false): T {
    const type = String(headers['content-type'] ?? '');
    let json: unknown;
    let parsed = false;
    const blank = !/\S/.test(text);
    if (!blank && /json/i.test(type || 'json')) {
      try {
        json = JSON.parse(text);
        parsed = true;
      } catch {
        parsed = false;
      }
    }
    if (status >= 200 && status < 300) {
      if (blank) throw new ApiError(`the API answered ${method} ${path} with an empty body`, status);
      if (!parsed) {
        const what = /json/i.test(type)
          ? 'a truncated or malformed JSON body'
          : `a body that is not JSON (${type.split(';')[0] || 'no content type'})`;
        throw new ApiError(
          `the API answered ${method} ${path} with ${what}`,
          status,
          [],
          'check that the base URL points at the API, not a web page',
        );
      }
      return json as T;
    }
    const refusal = readRefusal(status, type, text, parsed ? json : undefined);
    const said = this.redact(refusal.code ? `${refusal.said} (${refusal.code})` : refusal.said);
    const details = refusal.details.map((d) => this.redact(d));
    if (status === 401) {
      throw new AuthError(`the API refused the token (401): ${said}`, 'run `clinadmin login` or set CLINADMIN_TOKEN');
    }
    // 403: the token was accepted, and logging in again cannot help.
    if (status === 403) throw new AuthError(`the API does not allow ${method} ${path} (403): ${said}`);
    // A 404 for a whole collection (a list, a create) is not a missing record: the base URL is wrong.
    if (status === 404 && (list || method === 'POST')) {
      throw new NotFoundError(
        `the API at ${this.baseUrl} has no ${path} (404: ${said})`,
        'check the base URL with `clinadmin whoami`',
      );
    }
    if (status === 404) throw new NotFoundError(said);
    if (!parsed && status >= 500 && said === `HTTP ${status}`)
      throw new ApiError(`the API failed with HTTP ${status} and no problem details`, status);
    // A 5xx is the server failing, not refusing what was sent.
    const verb = status >= 500 ? 'failed on' : 'refused';
    throw new ApiError(`the API ${verb} ${method} ${path} (${status}): ${said}`, status, details);
  }

  /** Hides the token wherever it appears; a token under 4 characters would garble every message, and guards nothing. */
  private redact(s: string): string {
    return this.o.token && this.o.token.length >= 4 ? s.split(this.o.token).join('[redacted]') : s;
  }

  private networkError(err: unknown, code: string | undefined): ApiError {
    const at = this.baseUrl;
    if (code === 'CLINADMIN_TRUNCATED' || code === 'CLINADMIN_MALFORMED') {
      return new ApiError(
        `the API at ${at} sent a list that is ${code === 'CLINADMIN_TRUNCATED' ? 'cut off' : 'not valid JSON'}`,
        undefined,
        [],
        'try again; if it persists, check the server',
      );
    }
    if (code === 'CLINADMIN_LIST_TOO_LARGE') {
      return new ApiError(
        `the API at ${at} sent a list larger than ${MAX_HELD_LIST_BYTES / 2 ** 20} MiB, ` +
          'too large to hold for this view',
        undefined,
        [],
        'use -o table, -o ndjson, -o json or -o csv, which stream a list of any length',
      );
    }
    if (code === 'CLINADMIN_TOO_LARGE') {
      return new ApiError(
        `the API at ${at} sent a record (or an answer that is not a list) larger than ` +
          `${MAX_RECORD_BYTES / 2 ** 20} MiB, the cap for one; it was refused`,
      );
    }
    if (code === 'CLINADMIN_DEADLINE') {
      return new ApiError(
        `the API at ${at} did not answer within ${this.o.timeoutMs / 1000} s`,
        undefined,
        [],
        'try again, or raise --timeout',
      );
    }
    if (
      code === 'UND_ERR_HEADERS_TIMEOUT' ||
      code === 'UND_ERR_BODY_TIMEOUT' ||
      code === 'TimeoutError' ||
      code === 'UND_ERR_CONNECT_TIMEOUT'
    ) {
      return new ApiError(
        `the API at ${at} did not answer within ${this.o.timeoutMs / 1000} s`,
        undefined,
        [],
        'try again, or raise --timeout',
      );
    }
    if (code === 'ECONNREFUSED')
      return new ApiError(
        `cannot connect to the API at ${at}: connection refused`,
        undefined,
        [],
        'is the server running? check the base URL with `clinadmin whoami`',
      );
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return new ApiError(`cannot find the host of ${at}`, undefined, [], 'check the base URL with `clinadmin whoami`');
    const message = this.redact((err as Error)?.message ?? String(err));
    return new ApiError(`the connection to ${at} failed: ${message}`);
  }
}

/** The records of a list answer: an array, or the one array property of an object (a wrapper). */
function listIn(value: unknown, path: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object') {
    const arrays = Object.entries(value).filter(([, v]) => Array.isArray(v));
    if (arrays.length === 1) return arrays[0][1] as unknown[];
  }
  const what =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'an array'
        : typeof value === 'object'
          ? `an object with keys ${Object.keys(value).slice(0, 5).join(', ') || '(none)'}`
          : `a ${typeof value}`;
  throw new ApiError(`the API answered GET ${path} with ${what}, not a list`, undefined, [], 'check the base URL');
}

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: string; name?: string; cause?: { code?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'TimeoutError';
  return e?.code ?? e?.cause?.code;
}

function backoff(attempt: number): number {
  return Math.min(4000, 200 * 2 ** attempt) * (0.75 + Math.random() * 0.5);
}

/** Retry-After in seconds or as an HTTP date, capped so a script never sleeps for long. */
export function retryAfter(value: string | string[] | undefined): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  const seconds = Number(v);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(v) - Date.now();
  return Number.isFinite(ms) ? Math.max(0, Math.min(ms, 30_000)) : undefined;
}
