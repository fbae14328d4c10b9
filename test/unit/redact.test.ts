// Covers: src/api/redact.ts
import { describe, expect, it } from 'vitest';
import { redactor } from '../../src/api/redact.js';

// Issue 38, finding 5: the token is hidden in every encoding a server may echo it in. The encodings are
// made here the way the other systems make them: JSON.stringify and PHP's json_encode (which escapes `/`),
// \u escapes in either case, encodeURIComponent and lower-case percent-encoding, a Basic pair (RFC 7617).

const TOKEN = 's3cr3t/T0ken+x é"q';
const redact = redactor(TOKEN);

const uEscape = (s: string, upper = false) =>
  [...s]
    .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .map((e) => (upper ? e.toUpperCase().replace('\\U', '\\u') : e))
    .join('');
const lowerPercent = (s: string) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (p) => p.toLowerCase());
const everyByte = (s: string) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

// Base64 that starts `+/`: escaping them cuts the run two characters into a quad, before the token.
const B64_SLASHED = Buffer.concat([Buffer.from([0xfb, 0xff, 0x00]), Buffer.from(`:${TOKEN}`)]).toString('base64');

const ECHOES: Record<string, string> = {
  'as sent': TOKEN,
  'JSON.stringify': JSON.stringify(TOKEN).slice(1, -1),
  "PHP's json_encode (\\/)": JSON.stringify(TOKEN).slice(1, -1).replace(/\//g, '\\/'),
  '\\u escapes, lower hex': uEscape(TOKEN),
  '\\u escapes, upper hex': uEscape(TOKEN, true),
  'some \\u escapes': `${TOKEN.slice(0, 4)}${uEscape(TOKEN.slice(4, 9))}${TOKEN.slice(9)}`,
  encodeURIComponent: encodeURIComponent(TOKEN),
  'percent, lower hex': lowerPercent(TOKEN),
  'every byte percent-encoded': everyByte(TOKEN),
  'form-encoded (+ for space)': encodeURIComponent(TOKEN).replace(/%20/g, '+'),
  'Basic user:token': `Basic ${Buffer.from(`alice:${TOKEN}`).toString('base64')}`,
  'Basic with a longer user': `Basic ${Buffer.from(`bob1:${TOKEN}`).toString('base64')}`,
  'Basic, no user': `Basic ${Buffer.from(`:${TOKEN}`).toString('base64')}`,
  'base64url of token:x': Buffer.from(`${TOKEN}:x`).toString('base64url'),
  // A run of base64 need not start where the encoding does: a word glued before it shifts every quad.
  'base64 glued to a word': `token_${Buffer.from(`alice:${TOKEN}`).toString('base64')}`,
  'base64 glued to two letters': `ab${Buffer.from(`alice:${TOKEN}`).toString('base64')}`,
  // json_encode escapes the `/` of base64, and a query string percent-encodes its `/`, `+` and `=`.
  'base64 in json_encode (\\/)': B64_SLASHED.replace(/\//g, '\\/'),
  'base64 percent-encoded': encodeURIComponent(B64_SLASHED),
};

describe('the token is redacted in every encoding a server may echo', () => {
  it.each(Object.entries(ECHOES))('%s', (_name, echo) => {
    const out = redact(`{"echo":"${echo}","other":"kept"}`);
    expect(out).toContain('[redacted]');
    expect(out).toContain('"other":"kept"');
    // Nothing of the token is left to read back, in any form.
    for (const form of Object.values(ECHOES)) expect(out).not.toContain(form);
    expect(out).not.toContain('T0ken');
  });

  it('cuts the base64 runs its escaped forms are tested with', () => {
    expect(B64_SLASHED.slice(0, 2)).toBe('+/');
  });

  it('leaves text without the token as it is, base64 included', () => {
    const text = `Basic ${Buffer.from('alice:other-secret').toString('base64')} %2F \\u0041 s3cr3t`;
    expect(redact(text)).toBe(text);
    expect(redactor('abc')('abc')).toBe('abc');
  });
});
