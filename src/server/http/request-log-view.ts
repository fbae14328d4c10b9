// What GET /_admin/requests and GET /_admin/journal read from a request beyond the list: its header filters,
// and the facts a check needs to trust its count.

import { RESOURCES } from '../../resources/index.js';
import type { RequestLog } from './request-log.js';

/** The paths the API answers (each resource's also with an id after it): what `requests?path=` can name. */
const ROUTES = [...RESOURCES.map((r) => r.path), '/contracts', '/openapi.json'];

/**
 * What a check of the request log needs besides its entries: the names its filters can take, its limits, and for
 * the window since `since` (or the last clear) what it cannot list; `window` is null for a mark it does not have.
 */
export function requestLogFacts(j: RequestLog, accounts: readonly string[], since: string | null) {
  return {
    requests: j.maxRequests,
    bytes: j.maxBytes,
    bodies: j.bodies,
    headers: j.headerNames,
    accounts: [...new Set(accounts)],
    marks: j.markNames(),
    routes: ROUTES,
    since,
    window: j.window(since ?? undefined) ?? null,
    actions: j.actions(),
  };
}

/** `header=NAME=VALUE` filters, by lowercase name; undefined for none. */
export function headerFilter(given: string[], refuse: (status: number, detail: string) => never) {
  if (given.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const g of given.slice(0, 20)) {
    const at = g.indexOf('=');
    if (at <= 0) refuse(400, `header must be NAME=VALUE; got ${g.slice(0, 80)}`);
    out[g.slice(0, at).trim().toLowerCase()] = g.slice(at + 1);
  }
  return out;
}
