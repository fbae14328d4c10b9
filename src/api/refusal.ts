// What a server said when it refused a request, in its own words, whatever shape it used: problem+json
// (RFC 9457), or the shapes real services use ({"message"}, {"error"}, {"errors": [...]}), or plain text.

import type { Rec } from '../formats/json/record.js';

interface Refusal {
  /** The server's sentence, or `HTTP <status>` when it gave none. */
  said: string;
  /** Its machine code when it gave one, e.g. DUPLICATE_NAME. */
  code?: string;
  /** One line per field error: `field: message`. */
  details: string[];
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

// A server's words are shown, never trusted to be short: a sentence of 60 MB or 100,000 field errors would
// bury the terminal and the log, so a refusal shows a bounded part and says how much it left out.
const MAX_TEXT = 1000;
const MAX_DETAILS = 20;

/** `s` to MAX_TEXT characters, never splitting a surrogate pair, with how much was left out. */
function bounded(s: string): string {
  if (s.length <= MAX_TEXT) return s;
  const end = /[\uD800-\uDBFF]/.test(s[MAX_TEXT - 1]) ? MAX_TEXT - 1 : MAX_TEXT;
  return `${s.slice(0, end)}… (${(s.length - end).toLocaleString('en-US')} more characters)`;
}

/** The first MAX_DETAILS field errors, each bounded, and a line counting the rest. */
function boundedDetails(details: string[]): string[] {
  const shown = details.slice(0, MAX_DETAILS).map(bounded);
  const rest = details.length - shown.length;
  return rest > 0 ? [...shown, `… and ${rest.toLocaleString('en-US')} more field errors`] : shown;
}

/** `referenceRanges[0].max: must not be…` from any of the usual field error shapes. */
function fieldError(e: unknown): string | undefined {
  if (typeof e === 'string') return text(e);
  if (e === null || typeof e !== 'object') return undefined;
  const o = e as Rec;
  const source = o.source as Rec | undefined;
  const where = text(o.path) ?? text(o.field) ?? text(o.pointer) ?? text(source?.pointer) ?? text(o.param);
  const what = text(o.message) ?? text(o.detail) ?? text(o.title) ?? text(o.code);
  if (!what) return undefined;
  return where ? `${where}: ${what}` : what;
}

/**
 * Reads a refusal's body; `json` is the parsed body when it was JSON. `redact` runs on the whole texts before
 * they are cut, so a secret on the cut is never half shown.
 */
export function readRefusal(
  status: number,
  type: string,
  body: string,
  json: unknown,
  redact: (text: string) => string = (t) => t,
): Refusal {
  const shown = (t: string) => bounded(redact(t));
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
    const o = json as Rec;
    const error = o.error as Rec | string | undefined;
    const details = Array.isArray(o.errors) ? o.errors.map(fieldError).filter((d): d is string => Boolean(d)) : [];
    const problem = /problem\+json/i.test(type);
    const said = problem
      ? (text(o.detail) ?? text(o.title))
      : (text(o.message) ??
        text(error) ??
        text((error as Rec | undefined)?.message) ??
        text(o.detail) ??
        text(o.title) ??
        details[0]);
    const code = text(o.code) ?? text((error as Rec | undefined)?.code);
    return {
      said: shown(said ?? `HTTP ${status}`),
      code: code === undefined ? undefined : shown(code),
      details: boundedDetails((said === details[0] ? details.slice(1) : details).map(redact)),
    };
  }
  // A short text answer is the server's sentence; a web page or a long dump is not.
  const first = body.trim().split('\n')[0]?.trim() ?? '';
  const plain = first !== '' && !first.startsWith('<') && first.length <= 300 && json === undefined;
  return { said: plain ? redact(first) : `HTTP ${status}`, details: [] };
}
