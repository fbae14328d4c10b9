// Only the connection pool, not undici's index: the index also loads fetch, WebSocket, EventSource
// and the cache, which would triple the start-up of every command that makes a request.
import Pool from 'undici/lib/dispatcher/pool.js';
import { ApiError, AuthError, CliError, EXIT, NotFoundError } from '../errors.js';
import { JsonText } from '../json/json-text.js';

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
/** The largest answer about one record (or a write) that is read: more is a peer gone wrong. */
const MAX_RECORD_BYTES = 64 * 1024 * 1024;
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
      // Node's default (16 KiB), given here because the build leaves node:http out (scripts/lean/http.cjs).
      maxHeaderSize: 16 * 1024,
    });
  }

  get baseUrl(): string {
    return this.origin + this.prefix;
  }

  /**
   * One request, retried where that is safe. `--timeout` is a deadline for the whole exchange, except for
   * a list (`list: true`), whose answer may take longer while bytes keep flowing: there it bounds the wait
   * for the answer to start and any pause in it. Only a list may be larger than 64 MiB.
   */
  async request<T = unknown>(method: string, path: string, body?: unknown, opts: { list?: boolean } = {}): Promise<T> {
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
        ({ status, headers, text } = await this.send(method, this.prefix + path, payload, opts.list === true));
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
      if (this.o.trace)
        this.trace(`← ${status} ${method} ${url} (${Date.now() - started} ms, ${Buffer.byteLength(text)} B)`);
      // 429 means the request was refused unprocessed (RFC 6585), so even a POST may be sent again.
      if (RETRY_STATUS.has(status) && (mayRepeat || status === 429) && attempt < this.retries) {
        await this.sleep(retryAfter(headers['retry-after']) ?? backoff(attempt));
        continue;
      }
      return this.answer<T>(status, headers, text, method, path);
    }
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
    list: boolean,
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
            // A list may stream for longer; undici's body timeout still bounds each pause in it.
            if (list) settle();
          },
          onResponseData(controller, chunk) {
            size += chunk.length;
            if (!list && size > MAX_RECORD_BYTES) {
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

  private answer<T>(status: number, headers: Headers, text: string, method: string, path: string): T {
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
    const problem = (parsed && typeof json === 'object' && json !== null ? json : {}) as {
      title?: string;
      detail?: string;
      errors?: { path?: string; message?: string }[];
    };
    const said = this.redact(problem.detail ?? problem.title ?? `HTTP ${status}`);
    const details = Array.isArray(problem.errors)
      ? problem.errors.map((e) => this.redact(`${e.path ?? '(body)'}: ${e.message ?? 'invalid'}`))
      : [];
    if (status === 401 || status === 403) {
      throw new AuthError(
        `the API refused the token (${status}): ${said}`,
        'run `clinadmin login` or set CLINADMIN_TOKEN',
      );
    }
    if (status === 404) throw new NotFoundError(said);
    if (!parsed && status >= 500)
      throw new ApiError(`the API failed with HTTP ${status} and no problem details`, status);
    throw new ApiError(`the API refused ${method} ${path} (${status}): ${said}`, status, details);
  }

  /** Hides the token wherever it appears; a token under 4 characters would garble every message, and guards nothing. */
  private redact(s: string): string {
    return this.o.token && this.o.token.length >= 4 ? s.split(this.o.token).join('[redacted]') : s;
  }

  private networkError(err: unknown, code: string | undefined): ApiError {
    const at = this.baseUrl;
    if (code === 'CLINADMIN_TOO_LARGE') {
      return new ApiError(
        `the API at ${at} sent an answer larger than ${MAX_RECORD_BYTES / 2 ** 20} MiB for one record; it was refused`,
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
