import { createHash } from 'node:crypto';
import { ApiError } from '../errors.js';

/** The longest part of a header quoted in an error: the rest says nothing more. */
const QUOTED = 200;
const quote = (s: string) => (s.length > QUOTED ? `${s.slice(0, QUOTED)}…` : s);

/**
 * The path of the next page from a `Link: <…>; rel="next"` header (RFC 8288), or undefined on the last
 * page. A next page on another origin, or one that is not a URL, ends the list with an error naming it.
 */
export function nextPage(
  link: string | string[] | undefined,
  origin: string,
  current: string,
  path: string,
): string | undefined {
  const value = Array.isArray(link) ? link.join(', ') : link;
  if (!value) return undefined;
  // A URI reference holds no `<` (RFC 3986): stopping at one keeps this linear where `[^>]*` re-read the
  // rest of the header from every `<` of a hostile one, quadratic in the count of `,<`.
  for (const m of value.matchAll(/<([^<>]*)>([^,]*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(m[2])?.[1] ?? '';
    if (!rel.toLowerCase().split(/\s+/).includes('next')) continue;
    let url: URL;
    try {
      url = new URL(m[1], origin + current);
    } catch {
      throw new ApiError(
        `the API's Link header for GET ${path} names a next page that is not a URL: <${quote(m[1])}>; ` +
          'the list is incomplete',
        undefined,
        [],
        'check the server: its Link header must hold a URL (RFC 8288)',
      );
    }
    if (url.origin !== origin) {
      throw new ApiError(
        `the API's next page of GET ${path} is on another origin (${quote(url.origin)}); it was not followed, ` +
          'so the list is incomplete',
      );
    }
    return url.pathname + url.search;
  }
  return undefined;
}

/** Empty pages in a row past which a list is given up: a real API ends a list with a page that has no next. */
const MAX_EMPTY_PAGES = 100;
/** Pages of one list: 100,000 pages of 100 records is ten million, far past any catalog. */
const MAX_PAGES = 100_000;

/**
 * The pages of one list followed so far, each remembered as a 32-byte digest rather than its URL (a
 * header may hold 16 KB): a circle, a run of empty pages and a list past MAX_PAGES each end it, naming
 * the Link header, so a server sending endless distinct links can neither grow memory nor hold the CLI.
 */
export class PageTrail {
  private readonly seen = new Set<string>();
  private empty = 0;

  constructor(private readonly path: string) {}

  /** Records `page`, read with `records` in it, and returns `next` when it may be followed. */
  follow(page: string, records: number, next: string | undefined): string | undefined {
    this.seen.add(digest(page));
    this.empty = records > 0 ? 0 : this.empty + 1;
    if (next === undefined) return undefined;
    const path = this.path;
    if (this.seen.has(digest(next))) {
      throw new ApiError(`the API's next-page links for GET ${path} go round in a circle (at ${quote(next)})`);
    }
    const stop = (why: string) =>
      new ApiError(
        `the API's Link header for GET ${path} ${why}; no more were followed, so the list may be incomplete`,
        undefined,
        [],
        'check the server: a list ends with a page whose Link header has no rel="next" (RFC 8288)',
      );
    if (this.empty >= MAX_EMPTY_PAGES) throw stop(`named ${MAX_EMPTY_PAGES} next pages in a row with no records`);
    if (this.seen.size >= MAX_PAGES) throw stop(`led past ${MAX_PAGES.toLocaleString('en-US')} pages`);
    return next;
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest('base64');
