// A failed `sandbox requests --expect` shows the requests of its window nearest to what it asked (WireMock's
// near misses): what each differs in, and how its body differs from --body.

import type { Rec } from '../../formats/json/record.js';
import { globMatch } from './glob.js';
import { holds } from './request-log.js';

/** What a check asked, as `sandbox requests` parsed it. */
interface Asked {
  method?: string;
  path?: string;
  status?: string;
  account?: string;
  body?: unknown;
  /** `NAME=VALUE` each. */
  header?: string[];
}

/** At most this many requests are shown, each with at most this many differences of its body. */
const SHOWN = 3;
const BODY_LINES = 5;
/** A value longer than this is shown as its start. */
const WIDE = 60;

const cut = (text: string) => (text.length > WIDE ? `${text.slice(0, WIDE)}…` : text);
const shown = (v: unknown) => cut(v === undefined ? 'nothing' : JSON.stringify(v));

/**
 * Where `value` fails to hold `pattern`, as holds() judges, each as `path: what is there, not what was asked`;
 * at most `room` of them. An array that does not hold its pattern's elements in order is one difference.
 */
function differences(value: unknown, pattern: unknown, at: string, room: number): string[] {
  if (room <= 0 || holds(value, pattern)) return [];
  const isObject = (x: unknown) => x !== null && typeof x === 'object' && !Array.isArray(x);
  if (isObject(pattern) && isObject(value)) {
    const out: string[] = [];
    for (const [k, p] of Object.entries(pattern as Rec)) {
      const v = (value as Rec)[k];
      const path = `${at}.${k}`;
      if (!Object.hasOwn(value as Rec, k)) out.push(`${path}: missing, not ${shown(p)}`);
      else out.push(...differences(v, p, path, room - out.length));
      if (out.length >= room) break;
    }
    return out.slice(0, room);
  }
  return [`${at}: ${shown(value)}, not ${shown(pattern)}`];
}

/** How far a request is from what was asked: one for each filter it fails. */
function misses(r: Rec, asked: Asked): string[] {
  const out: string[] = [];
  if (asked.method !== undefined && r.method !== asked.method.toUpperCase()) out.push('method');
  if (asked.path !== undefined && !globMatch(asked.path, String(r.path))) out.push('path');
  if (asked.status !== undefined && String(r.status) !== asked.status) out.push('status');
  if (asked.account !== undefined && r.account !== asked.account) out.push('account');
  const sent = (r.headers ?? {}) as Record<string, unknown>;
  for (const h of asked.header ?? []) {
    const at = h.indexOf('=');
    const name = h.slice(0, at).trim().toLowerCase();
    if (sent[name] !== h.slice(at + 1)) out.push(`header ${cut(name)}`);
  }
  if (asked.body !== undefined && !('body' in r && holds(r.body, asked.body))) out.push('body');
  return out;
}

/**
 * The lines a failed check prints after its sentence: the nearest requests of the window that did not match
 * (fewest filters failed, the latest first), each with what it failed and its body's differences; none when
 * the window holds no other request.
 */
export function nearMisses(window: readonly Rec[], asked: Asked): string[] {
  const scored: { r: Rec; failed: string[]; at: number }[] = [];
  window.forEach((r, at) => {
    const failed = misses(r, asked);
    if (failed.length > 0) scored.push({ r, failed, at });
  });
  if (scored.length === 0) return [];
  scored.sort((a, b) => a.failed.length - b.failed.length || b.at - a.at);
  const lines = [
    `the nearest ${Math.min(SHOWN, scored.length) === 1 ? 'request' : 'requests'} of the window ` +
      `(${scored.length} did not match):`,
  ];
  for (const { r, failed } of scored.slice(0, SHOWN)) {
    const who = r.account === undefined ? 'no account' : cut(String(r.account));
    lines.push(`  ${cut(String(r.method))} ${cut(String(r.path))} ${who} ${r.status}: differs in ${failed.join(', ')}`);
    if (!failed.includes('body')) continue;
    if (!('body' in r)) {
      lines.push(`    body: not kept whole (${'bodyBytes' in r ? `${r.bodyBytes} bytes` : 'none sent'})`);
      continue;
    }
    for (const d of differences(r.body, asked.body, 'body', BODY_LINES)) lines.push(`    ${d}`);
  }
  return lines;
}
