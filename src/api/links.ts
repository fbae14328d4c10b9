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
  // rest of the header from every `<` of a hostile one (7 s for 120 KB of `,<`).
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
