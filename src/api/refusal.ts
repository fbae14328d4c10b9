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

/** Reads a refusal's body; `json` is the parsed body when it was JSON. */
export function readRefusal(status: number, type: string, body: string, json: unknown): Refusal {
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
    return { said: said ?? `HTTP ${status}`, code, details: said === details[0] ? details.slice(1) : details };
  }
  // A short text answer is the server's sentence; a web page or a long dump is not.
  const first = body.trim().split('\n')[0]?.trim() ?? '';
  const plain = first !== '' && !first.startsWith('<') && first.length <= 300 && json === undefined;
  return { said: plain ? first : `HTTP ${status}`, details: [] };
}
