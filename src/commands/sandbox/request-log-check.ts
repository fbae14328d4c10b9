// What `sandbox requests` checks before it trusts a count: that each filter names something the server has,
// and that the request log holds every request of the window it counts.

import { nearest } from '../../core/nearest.js';
import { CliError, EXIT, NotFoundError } from '../../errors.js';

/** GET /_admin/journal's answer. */
export interface RequestLogFacts {
  requests: number;
  bytes: number;
  accounts: string[];
  marks: string[];
  routes: string[];
  window: { dropped: number; limit?: 'journal-requests' | 'journal-bytes'; refused: number } | null;
}

/** The nearest of `known` as a hint, else the whole list (at most ten, said so when cut). */
function guess(word: string, known: readonly string[], what: string): string {
  const near = nearest(word, known);
  if (near !== undefined) return `did you mean ${near}?`;
  if (known.length === 0) return `the server has no ${what}`;
  const shown = known.slice(0, 10).join(', ');
  return `the ${what} are ${shown}${known.length > 10 ? `, and ${known.length - 10} more` : ''}`;
}

/**
 * Whether a path glob can match a path the API answers: a route, or a route and an id after it. What the glob
 * says before its first `*` is enough: a star can stand for the rest of any route.
 */
function namesRoute(glob: string, routes: readonly string[]): boolean {
  const star = glob.indexOf('*');
  const head = star === -1 ? glob : glob.slice(0, star);
  return routes.some((r) => {
    if (star !== -1 && r.startsWith(head)) return true;
    if (head === r || head === `${r}/`) return true;
    if (!head.startsWith(`${r}/`)) return false;
    const id = head.slice(r.length + 1);
    return !id.slice(0, -1).includes('/') && (star !== -1 || id !== '');
  });
}

/** The first filter that names nothing the server has, as the error to throw; a mark's is a 404 as before. */
export function filterFault(
  filters: { account?: string; path?: string; since?: string },
  facts: RequestLogFacts,
): CliError | undefined {
  const { account, path, since } = filters;
  if (since !== undefined && !facts.marks.includes(since)) {
    const near = nearest(since, facts.marks);
    return new NotFoundError(
      `the server has no mark named ${since}`,
      near !== undefined ? `did you mean ${near}?` : `make one first: clinadmin sandbox mark ${since}`,
    );
  }
  if (account !== undefined && !facts.accounts.includes(account))
    return new NotFoundError(
      `no token of the server has the account ${account}, so --account ${account} matches nothing`,
      guess(account, facts.accounts, 'accounts'),
    );
  if (path !== undefined && !namesRoute(path, facts.routes))
    return new NotFoundError(
      `no path the server answers matches --path ${path}`,
      guess(path.split('*')[0], facts.routes, 'paths'),
    );
  return undefined;
}

/** Why a count over the window cannot be trusted: requests the request log dropped, or never kept; else undefined. */
export function windowFault(facts: RequestLogFacts, since: string | undefined): CliError | undefined {
  const w = facts.window;
  if (!w || w.dropped === 0) return undefined;
  const where = since === undefined ? 'since the journal was last cleared' : `since mark ${since}`;
  const n = `${w.dropped} ${w.dropped === 1 ? 'request' : 'requests'}`;
  if (facts.requests <= 0 || facts.bytes <= 0)
    return new CliError(
      `the request journal is off, so the ${n} ${where} cannot be counted`,
      EXIT.failure,
      'start serve with --journal-requests and --journal-bytes above 0',
    );
  const limit = w.limit === 'journal-bytes' ? `--journal-bytes ${facts.bytes}` : `--journal-requests ${facts.requests}`;
  return new CliError(
    `the request journal dropped ${n} ${where} (it keeps ${limit}), so the count cannot be trusted`,
    EXIT.failure,
    `start serve with a larger ${limit.split(' ')[0]}`,
  );
}
