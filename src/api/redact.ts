// A token must not reach a trace or an error in any form a server may echo it in: as sent, JSON-escaped
// (`\/`, `\u0041`), percent-encoded (either case of hex), or inside a Basic pair (base64 of user:token).

const hexCase = (h: string) => [...h].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const literal = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** Each character of the token in any of the forms it may take, so one pass finds every encoding. */
function tokenPattern(token: string): RegExp {
  const parts: string[] = [];
  for (const ch of token) {
    const forms = [literal(ch)];
    for (let k = 0; k < ch.length; k++) forms.push(`\\\\u${hexCase(hex(ch.charCodeAt(k), 4))}`);
    forms.push([...Buffer.from(ch)].map((b) => `%${hexCase(hex(b, 2))}`).join(''));
    if (ch === '/') forms.push('\\\\/');
    if (ch === '"' || ch === '\\') forms.push(`\\\\${literal(ch)}`);
    if (ch === ' ') forms.push('\\+');
    parts.push(`(?:${forms.join('|')})`);
  }
  return new RegExp(parts.join(''), 'g');
}

/**
 * Runs of base64 or base64url, their `/`, `+` and `=` also as a JSON writer (`\/`) or a query string
 * (`%2F`) escapes them; each is decoded and checked for the token.
 */
const BASE64 = /(?:[A-Za-z0-9+/_-]|\\\/|%2[BbFf])+(?:=|%3[Dd]){0,2}/g;
const unescape64 = (run: string) =>
  run
    .replace(/\\\//g, '/')
    .replace(/%2[Bb]/g, '+')
    .replace(/%2[Ff]/g, '/')
    .replace(/%3[Dd]/g, '=')
    .replace(/-/g, '+')
    .replace(/_/g, '/');

/**
 * Hides the token wherever it appears, in whatever encoding. A token under 4 characters would garble
 * every message and guards nothing, so it is left alone.
 */
export function redactor(token: string | undefined): (s: string) => string {
  if (!token || token.length < 4) return (s) => s;
  const pattern = tokenPattern(token);
  const bytes = Buffer.from(token).toString('latin1');
  // A run may start inside a quad (a word glued before it, an escape cut it): each of the 4 starts is tried.
  const holds = (run: string) => {
    const b64 = unescape64(run);
    for (let k = 0; k < 4; k++) if (Buffer.from(b64.slice(k), 'base64').toString('latin1').includes(bytes)) return true;
    return false;
  };
  return (s) => {
    let out = s.includes(token) ? s.split(token).join('[redacted]') : s;
    pattern.lastIndex = 0;
    out = out.replace(pattern, '[redacted]');
    return out.replace(BASE64, (run) => (run.length >= 8 && holds(run) ? '[redacted]' : run));
  };
}
