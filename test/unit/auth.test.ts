// Covers: src/server/http/auth.ts
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../src/server/http/auth.js';

// A full collection before each reading, so what the heap holds is what something still refers to.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const held = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

describe("serve's authenticator (issue 38)", () => {
  it('accepts a valid token however its header is spaced, and refuses others', () => {
    const auth = createAuthenticator([
      { token: 'tok-a', account: 'acct_a', admin: true },
      { token: 'tok-b', account: 'b' },
    ]);
    expect(auth('Bearer tok-a')).toEqual({ account: 'acct_a', admin: true });
    expect(auth('bearer   tok-a  ')).toEqual({ account: 'acct_a', admin: true });
    expect(auth('Bearer tok-b')).toEqual({ account: 'b', admin: false });
    for (const refused of [undefined, '', 'Bearer', 'Bearer tok-c', 'Bearer tok-a x', 'Basic tok-a', 'tok-a']) {
      expect(auth(refused)).toBeUndefined();
    }
  });

  it('holds no memory for many distinct long spellings of one valid header (before: ~16 MB)', () => {
    const auth = createAuthenticator([{ token: 'tok-a', account: 'acct_a' }]);
    const before = held();
    // Node admits headers up to 16 KB: each spelling differs in its trailing spaces.
    for (let i = 0; i < 1000; i++) {
      expect(auth(`Bearer tok-a${' '.repeat(15_000 + i)}`)?.account).toBe('acct_a');
    }
    expect(held() - before).toBeLessThan(4 * 2 ** 20);
  });
});
