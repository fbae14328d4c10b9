// Faults `clinadmin serve` injects on request, so a CI job can rehearse a slow, overloaded or failing
// service. Each is decided before the request is handled: an injected error has changed nothing.

import { withoutTrailingSlashes } from '../../strings.js';
import { globMatch } from './glob.js';

interface FailRule {
  method: string;
  /** The path pattern as given, for the message. */
  pattern: string;
  /** The glob matched, without the trailing slashes of the pattern. */
  path: string;
  status: number;
}

export interface Faults {
  /** Every answer waits a random time from min to max milliseconds. */
  latency?: { min: number; max: number };
  /** The share of API requests (0–1) answered 503. */
  failRate?: number;
  /** API requests accepted per second; more are answered 429. */
  rateLimit?: number;
  failOn: FailRule[];
}

interface InjectedFault {
  status: number;
  detail: string;
  headers: Record<string, string>;
}

/** `MS` or `MIN-MAX`, whole milliseconds; undefined when it is neither. */
export function parseLatency(text: string): { min: number; max: number } | undefined {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(text);
  if (!m) return undefined;
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : Number(m[2]);
  return max >= min && max <= 60_000 ? { min, max } : undefined;
}

/** `METHOD:PATH-PATTERN:STATUS`, e.g. `POST:/insurance-coverages:500`; `*` in the path matches any text. */
export function parseFailOn(text: string): FailRule | undefined {
  const first = text.indexOf(':');
  const last = text.lastIndexOf(':');
  if (first <= 0 || last === first) return undefined;
  const method = text.slice(0, first).toUpperCase();
  const pattern = text.slice(first + 1, last);
  const status = Number(text.slice(last + 1));
  if (!/^([A-Z]+|\*)$/.test(method) || !pattern.startsWith('/') || !Number.isInteger(status)) return undefined;
  if (status < 400 || status > 599) return undefined;
  return { method, pattern, path: withoutTrailingSlashes(pattern), status };
}

/** The path as the glob, or with one trailing slash more: `/a/` is the same path as `/a`. */
const pathMatches = (glob: string, path: string) =>
  globMatch(glob, path) || (path.endsWith('/') && globMatch(glob, path.slice(0, -1)));

const RETRY_AFTER = { 'retry-after': '1' };

/** Decides, for one request, whether a fault answers it instead of the API. */
export function createFaults(faults: Faults, now = Date.now, random = Math.random, by = '--fail-on') {
  let window = -1;
  let accepted = 0;
  return {
    /** How long to hold this answer, in ms. */
    delay(): number {
      const l = faults.latency;
      return l ? l.min + Math.round(random() * (l.max - l.min)) : 0;
    },
    /** The injected answer for this request, if any. `api` is false for /healthz and /openapi.json. */
    inject(method: string, path: string, api: boolean): InjectedFault | undefined {
      for (const rule of faults.failOn) {
        if ((rule.method === '*' || rule.method === method) && pathMatches(rule.path, path)) {
          return {
            status: rule.status,
            detail: `injected by ${by} ${rule.method}:${rule.pattern}:${rule.status}; nothing was changed`,
            headers: rule.status === 429 || rule.status === 503 ? RETRY_AFTER : {},
          };
        }
      }
      // The health check and the contract stay reliable, so a CI wait loop is not itself made flaky.
      if (!api) return undefined;
      if (faults.rateLimit !== undefined) {
        const second = Math.floor(now() / 1000);
        if (second !== window) {
          window = second;
          accepted = 0;
        }
        if (accepted >= faults.rateLimit) {
          return {
            status: 429,
            detail: `more than ${faults.rateLimit} requests this second (--rate-limit); nothing was changed`,
            headers: RETRY_AFTER,
          };
        }
        accepted++;
      }
      if (faults.failRate !== undefined && random() < faults.failRate) {
        return {
          status: 503,
          detail: 'injected by --fail-rate; nothing was changed: send the request again',
          headers: RETRY_AFTER,
        };
      }
      return undefined;
    },
  };
}

export const noFaults = (f: Faults) =>
  f.latency === undefined && f.failRate === undefined && f.rateLimit === undefined && f.failOn.length === 0;
