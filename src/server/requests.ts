import { globMatch } from './glob.js';

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
  /** Only with `serve --record-bodies`. */
  body?: unknown;
}

export interface RequestFilter {
  method?: string;
  /** A glob: `*` matches any characters, `/` included. */
  path?: string;
  status?: number;
}

/**
 * The last `size` requests a serve answered, oldest first (WireMock's request journal): a ring, so it
 * costs the same at any age of the server. Size 0 keeps none.
 */
export class RequestJournal {
  private ring: RequestEntry[] = [];
  private next = 0;

  constructor(readonly size: number) {}

  record(entry: RequestEntry): void {
    if (this.size <= 0) return;
    if (this.ring.length < this.size) this.ring.push(entry);
    else this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.size;
  }

  list(filter: RequestFilter = {}): RequestEntry[] {
    const all =
      this.ring.length < this.size ? this.ring : [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
    const path = filter.path;
    return all.filter(
      (e) =>
        (filter.method === undefined || e.method === filter.method.toUpperCase()) &&
        (path === undefined || globMatch(path, e.path)) &&
        (filter.status === undefined || e.status === filter.status),
    );
  }

  clear(): void {
    this.ring = [];
    this.next = 0;
  }
}
