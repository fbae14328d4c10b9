// Covers: src/api/retry.ts
import { describe, expect, it } from 'vitest';
import { retryAfter } from '../../src/api/retry.js';

// RFC 9110 §10.2.3: Retry-After = HTTP-date / delay-seconds, delay-seconds = 1*DIGIT. Anything else is
// no Retry-After at all: the client's own backoff applies, never a wait a garbled header made up.

describe('Retry-After', () => {
  it('reads delay-seconds and the RFC example date', () => {
    expect(retryAfter('120')).toBe(120_000);
    expect(retryAfter('0')).toBe(0);
    // The RFC's own example, long past: no wait.
    expect(retryAfter('Fri, 31 Dec 1999 23:59:59 GMT')).toBe(0);
    const soon = new Date(Date.now() + 60_000).toUTCString();
    expect(retryAfter(soon)).toBeGreaterThan(50_000);
    // The obsolete forms a recipient must still read: RFC 850 and asctime.
    expect(retryAfter('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(0);
    expect(retryAfter('Sun Nov  6 08:49:37 1994')).toBe(0);
  });

  it.each(['-5', '0x10', '1e3', '12.5', 'garbage 1', '1 2', 'Infinity', '', ' '])('ignores %j', (value) => {
    expect(retryAfter(value)).toBeUndefined();
  });
});
