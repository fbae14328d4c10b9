import { globMatch } from './glob.js';
import { rawJson } from './record-json.js';

/** One request as the journal keeps it: never the Authorization header or a token. */
export interface RequestEntry {
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
}

export interface RequestFilter {
  method?: string;
  /** A glob: `*` matches any characters, `/` included. */
  path?: string;
  status?: number;
}

/** The request journal's default cap: with the process's own ~30 MB, serve stays near 100 MB for it. */
export const JOURNAL_BYTES = 32 * 1024 * 1024;
/** What a refused body, or one too large to keep whole, is cut to. */
export const BODY_START = 256;
/** What one entry costs beyond its text: the object and its fields. */
const OVERHEAD = 160;
/** One character past Latin-1 (a one-character class: linear, no backtracking). */
const WIDE = /[^\u0000-\u00ff]/;

/** An entry as kept: the fields a filter reads, and its JSON, made once, so its cost is its bytes. */
interface Kept {
  method: string;
  path: string;
  status: number;
  json: string;
  bytes: number;
}

/**
 * The last requests a serve answered, oldest first (WireMock's request journal), bounded both in number
 * (`size`) and in bytes (`maxBytes`, paths, queries and bodies counted): the oldest go first. Size 0 keeps none.
 */
export class RequestJournal {
  private kept: (Kept | undefined)[] = [];
  private head = 0;
  private bytes = 0;

  constructor(
    readonly size: number,
    readonly maxBytes = JOURNAL_BYTES,
  ) {}

  /**
   * Keeps a request, with the body's text when bodies are recorded: whole (it is JSON the server read) when
   * the request was accepted and the body is at most an eighth of the cap, else its first 256 characters and
   * its size, so no peer can fill the journal with refused bodies.
   */
  record(entry: RequestEntry, body?: string): void {
    if (this.size <= 0 || this.maxBytes <= 0) return;
    let json = JSON.stringify(entry);
    if (body !== undefined) {
      const whole = entry.status < 400 && body.length <= this.maxBytes / 8;
      const extra = whole
        ? `,"body":${body}`
        : `,"bodyStart":${JSON.stringify(body.slice(0, BODY_START))},"bodyBytes":${Buffer.byteLength(body)}`;
      json = `${json.slice(0, -1)}${extra}}`;
    }
    const item = { method: entry.method, path: entry.path, status: entry.status, json, bytes: 0 };
    // V8 keeps a string with any character past Latin-1 at two bytes a character, the whole string.
    const width = WIDE.test(json) ? 2 : 1;
    item.bytes = OVERHEAD + width * json.length + entry.path.length + entry.method.length;
    this.kept.push(item);
    this.bytes += item.bytes;
    while (this.kept.length - this.head > this.size || (this.bytes > this.maxBytes && this.kept.length > this.head))
      this.dropOldest();
  }

  /** The entries that match, oldest first, each as its JSON (for sendList). */
  list(filter: RequestFilter = {}): object[] {
    const method = filter.method?.toUpperCase();
    const out: object[] = [];
    for (let i = this.head; i < this.kept.length; i++) {
      const e = this.kept[i]!;
      if (method !== undefined && e.method !== method) continue;
      if (filter.status !== undefined && e.status !== filter.status) continue;
      if (filter.path !== undefined && !globMatch(filter.path, e.path)) continue;
      out.push(rawJson(e.json));
    }
    return out;
  }

  clear(): void {
    this.kept = [];
    this.head = 0;
    this.bytes = 0;
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
