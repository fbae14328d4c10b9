import { rawJson } from '../../formats/json/record-json.js';
import { globMatch } from './glob.js';

/** One request as the log keeps it: never the Authorization header or a token. */
interface RequestEntry {
  /** Milliseconds since the epoch. */
  time: number;
  method: string;
  /** Without the query. */
  path: string;
  /** Absent, as the account, the duration and the body, for a request without a valid token. */
  query?: string;
  status: number;
  /** The account of a valid token. */
  account?: string;
  durationMs?: number;
  /** The request's headers of the log's allow-list that it sent, by lowercase name. */
  headers?: Record<string, string>;
}

/** The request headers the log keeps: a test checks them; none carries a credential. */
export const REQUEST_LOG_HEADERS = ['idempotency-key', 'x-request-id', 'content-type', 'user-agent'];
/** Headers that carry credentials: never kept, whatever serve is told. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** A header name serve may be told to keep, lowercased; undefined for one that is not a name or holds a secret. */
export function requestLogHeaderName(text: string): string | undefined {
  const name = text.trim().toLowerCase();
  return /^[a-z0-9!#$%&'*+.^_`|~-]{1,100}$/.test(name) && !SECRET_HEADERS.has(name) ? name : undefined;
}

/** What a header's value is cut to in the log. */
const HEADER_VALUE = 256;

interface RequestFilter {
  method?: string;
  /** A glob: `*` matches any characters, `/` included. */
  path?: string;
  status?: number;
  /** The account of the token used. */
  account?: string;
  /** Only requests recorded after the mark of this name. */
  since?: string;
  /** Only requests whose recorded body holds this value (see holds()). */
  body?: unknown;
  /** Only requests that sent each of these headers (lowercase names) with exactly this value. */
  headers?: Record<string, string>;
}

/** A filter the log cannot apply: a mark it does not have, a body it does not keep. */
export class RequestLogFilterError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Whether `value` holds `pattern`, as WireMock's equalToJson with ignoreExtraElements: an object holds
 * every field of the pattern's with a value that holds it (extra fields ignored); an array holds each
 * element of the pattern's, in order, each by a distinct element of its own (extra elements ignored:
 * [1, 3] is held by [1, 2, 3], not by [3, 1]); anything else is equal (JSON numbers by value). Taking
 * the earliest element that holds each is enough: a later one could only leave fewer for the rest.
 */
export function holds(value: unknown, pattern: unknown): boolean {
  if (Array.isArray(pattern)) {
    if (!Array.isArray(value)) return false;
    let at = 0;
    for (const p of pattern) {
      while (at < value.length && !holds(value[at], p)) at++;
      if (at === value.length) return false;
      at++;
    }
    return true;
  }
  if (pattern !== null && typeof pattern === 'object') {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const v = value as Record<string, unknown>;
    return Object.entries(pattern).every(([k, p]) => Object.hasOwn(v, k) && holds(v[k], p));
  }
  return value === pattern;
}

/** The request log's default cap: with the process's own ~30 MB, serve stays near 100 MB for it. */
export const REQUEST_LOG_BYTES = 32 * 1024 * 1024;
/** What a refused body, or one too large to keep whole, is cut to. */
const BODY_START = 256;
/** What one entry costs beyond its text: the object and its fields. */
const OVERHEAD = 160;
/** One character past Latin-1 (a one-character class: linear, no backtracking). */
const WIDE = /[^\u0000-\u00ff]/;

/** An entry as kept: the fields a filter reads, and its JSON, made once, so its cost is its bytes. */
interface Kept {
  /** Its place among every request recorded: a mark is the place of the next one. */
  seq: number;
  method: string;
  path: string;
  status: number;
  account?: string;
  headers?: Record<string, string>;
  json: string;
  bytes: number;
}

/** Where a window of the log begins: the place of its first request, and the strangers counted before it. */
interface Place {
  seq: number;
  refused: number;
}

/** What a check over a window must know besides its entries: what it cannot see. */
interface RequestLogWindow {
  /** Requests of the window the log recorded and no longer holds (its limits), or never held (maxRequests 0). */
  dropped: number;
  /** The limit that dropped them: the one to raise. */
  limit?: 'journal-requests' | 'journal-bytes';
  /** Requests that named no valid token (answered 401 or 403, or never read): counted apart, never listed. */
  refused: number;
}

/**
 * The last requests a serve answered, oldest first (WireMock's request journal), bounded in number (`maxRequests`)
 * and in bytes (`maxBytes`: paths, queries, bodies), oldest out first; 0 keeps none but counts, so a check can say so.
 */
export class RequestLog {
  private kept: (Kept | undefined)[] = [];
  private head = 0;
  private bytes = 0;
  private recorded = 0;
  /** Requests refused for want of a valid token: kept apart, so a stranger can neither match nor evict. */
  private refusedCount = 0;
  /** Where the last clear left the log: what came before is not dropped, only cleared. */
  private cleared: Place = { seq: 0, refused: 0 };
  /** What admins did that changes how requests are answered (faults set, cleared), the last 100. */
  private readonly done: { time: number; account: string; action: string }[] = [];
  /** `sandbox mark NAME`: where the log stood, by name (bounded: a mark again moves it). */
  private readonly marks = new Map<string, Place>();

  constructor(
    readonly maxRequests: number,
    readonly maxBytes = REQUEST_LOG_BYTES,
    /** Whether bodies are recorded (`serve --record-bodies`): a body filter needs them. */
    readonly bodies = false,
    /** The request headers kept (REQUEST_LOG_HEADERS and those `serve --journal-header` names), lowercase. */
    readonly headerNames: readonly string[] = REQUEST_LOG_HEADERS,
  ) {}

  /** The allow-listed headers a request sent, each value cut to 256 characters; undefined for none. */
  headersOf(sent: Record<string, string | string[] | undefined>): Record<string, string> | undefined {
    let out: Record<string, string> | undefined;
    for (const name of this.headerNames) {
      const v = sent[name];
      if (v === undefined) continue;
      out ??= {};
      out[name] = (Array.isArray(v) ? v.join(', ') : v).slice(0, HEADER_VALUE);
    }
    return out;
  }

  /** Marks the log here: `since` this name lists only the requests recorded after. At most 1,000 names. */
  mark(name: string): { mark: string; requests: number } {
    if (!this.marks.has(name) && this.marks.size >= 1000)
      throw new RequestLogFilterError(400, 'the journal holds 1,000 marks already; reuse a name');
    this.marks.set(name, { seq: this.recorded, refused: this.refusedCount });
    return { mark: name, requests: this.kept.length - this.head };
  }

  /** Records an admin's action, apart from the requests: it is no request of the app's. */
  action(account: string, action: string): void {
    this.done.push({ time: Date.now(), account, action });
    if (this.done.length > 100) this.done.shift();
  }

  /** The admin actions kept, oldest first. */
  actions(): readonly { time: number; account: string; action: string }[] {
    return this.done;
  }

  /** The names of the marks, oldest first. */
  markNames(): string[] {
    return [...this.marks.keys()];
  }

  /** Counts a request that named no valid token (a 401, a 403 on the way to one, or gone first), keeping nothing. */
  refuse(): void {
    this.refusedCount++;
  }

  /**
   * What the window since a mark (or since the last clear) holds that a list cannot show; undefined for a mark
   * the log does not have. Entries go oldest first, so the dropped ones are those before the first kept.
   */
  window(since?: string): RequestLogWindow | undefined {
    const mark = since === undefined ? this.cleared : this.marks.get(since);
    if (mark === undefined) return undefined;
    const from = Math.max(mark.seq, this.cleared.seq);
    const first = this.kept[this.head]?.seq ?? this.recorded;
    const dropped = Math.max(0, first - from);
    const refused = this.refusedCount - Math.max(mark.refused, this.cleared.refused);
    if (dropped === 0) return { dropped, refused };
    const full = this.maxRequests > 0 && this.kept.length - this.head >= this.maxRequests;
    return { dropped, limit: this.maxRequests <= 0 || full ? 'journal-requests' : 'journal-bytes', refused };
  }

  /**
   * Keeps a request, with the body's text when bodies are recorded: whole when the server read it as JSON
   * (`parsed`), accepted or refused alike, and it is at most an eighth of the cap; else its first 256
   * characters and its size. The byte cap bounds both, so no peer can fill the log with refused bodies.
   */
  record(entry: RequestEntry, body?: string, parsed = false): void {
    if (this.maxRequests <= 0 || this.maxBytes <= 0) {
      this.recorded++;
      return;
    }
    let json = JSON.stringify(entry);
    if (body !== undefined) {
      const whole = parsed && body.length <= this.maxBytes / 8;
      const extra = whole
        ? `,"body":${body}`
        : `,"bodyStart":${JSON.stringify(body.slice(0, BODY_START))},"bodyBytes":${Buffer.byteLength(body)}`;
      json = `${json.slice(0, -1)}${extra}}`;
    }
    const item: Kept = {
      seq: this.recorded++,
      method: entry.method,
      path: entry.path,
      status: entry.status,
      account: entry.account,
      headers: entry.headers,
      json,
      bytes: 0,
    };
    // V8 keeps a string with any character past Latin-1 at two bytes a character, the whole string.
    const width = WIDE.test(json) ? 2 : 1;
    item.bytes = OVERHEAD + width * json.length + entry.path.length + entry.method.length;
    this.kept.push(item);
    this.bytes += item.bytes;
    while (
      this.kept.length - this.head > this.maxRequests ||
      (this.bytes > this.maxBytes && this.kept.length > this.head)
    )
      this.dropOldest();
  }

  /** The entries that match, oldest first, each as its JSON (for sendList). */
  list(filter: RequestFilter = {}): object[] {
    const method = filter.method?.toUpperCase();
    let since = 0;
    if (filter.since !== undefined) {
      const at = this.marks.get(filter.since);
      if (at === undefined) throw new RequestLogFilterError(404, `no mark named ${filter.since}`);
      since = at.seq;
    }
    const unkept = Object.keys(filter.headers ?? {}).find((h) => !this.headerNames.includes(h));
    if (unkept !== undefined)
      throw new RequestLogFilterError(
        400,
        `the request journal keeps no ${unkept} header, so none can match it; it keeps ` +
          `${this.headerNames.join(', ')}: start serve with --journal-header ${unkept}`,
      );
    if (filter.body !== undefined && !this.bodies)
      throw new RequestLogFilterError(
        400,
        'the request journal keeps no bodies, so none can match body; start serve with --record-bodies',
      );
    const out: object[] = [];
    for (let i = this.head; i < this.kept.length; i++) {
      const e = this.kept[i]!;
      if (e.seq < since) continue;
      if (method !== undefined && e.method !== method) continue;
      if (filter.status !== undefined && e.status !== filter.status) continue;
      if (filter.account !== undefined && e.account !== filter.account) continue;
      if (filter.path !== undefined && !globMatch(filter.path, e.path)) continue;
      if (filter.headers && Object.entries(filter.headers).some(([k, v]) => e.headers?.[k] !== v)) continue;
      if (filter.body !== undefined && !holds((JSON.parse(e.json) as { body?: unknown }).body, filter.body)) continue;
      out.push(rawJson(e.json));
    }
    return out;
  }

  clear(): void {
    this.kept = [];
    this.head = 0;
    this.bytes = 0;
    this.cleared = { seq: this.recorded, refused: this.refusedCount };
  }

  private dropOldest(): void {
    this.bytes -= this.kept[this.head]!.bytes;
    this.kept[this.head++] = undefined;
    // Dropped slots are given back once they are half of the array: amortised constant time per entry.
    if (this.head > 1024 && this.head * 2 > this.kept.length) {
      this.kept = this.kept.slice(this.head);
      this.head = 0;
    }
  }
}
