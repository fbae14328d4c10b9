// Covers: src/server/http/glob.ts
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { globMatch } from '../../src/server/http/glob.js';

/** The meaning of a glob, written the slow way: `*` any characters, everything else itself. */
function reference(glob: string, text: string): boolean {
  const memo = new Map<string, boolean>();
  const at = (g: number, t: number): boolean => {
    const key = `${g},${t}`;
    if (memo.has(key)) return memo.get(key)!;
    let r: boolean;
    if (g === glob.length) r = t === text.length;
    else if (glob[g] === '*') r = at(g + 1, t) || (t < text.length && at(g, t + 1));
    else r = t < text.length && glob[g] === text[t] && at(g + 1, t + 1);
    memo.set(key, r);
    return r;
  };
  return at(0, 0);
}

describe('globMatch', () => {
  it('agrees with the definition of a glob on random globs and paths', () => {
    const alphabet = fc.constantFrom('a', 'b', '/', '*', '.', '(', '?', '\\');
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 8 }), fc.string({ unit: alphabet, maxLength: 12 }), (g, t) => {
        expect(globMatch(g, t), `${g} ~ ${t}`).toBe(reference(g, t));
      }),
      { numRuns: 5000 },
    );
  });

  it('matches the journal filters and fault rules people write', () => {
    expect(globMatch('/insurance-coverages*', '/insurance-coverages/cov_1')).toBe(true);
    expect(globMatch('/insurance-*', '/diagnostic-measures')).toBe(false);
    expect(globMatch('*', '')).toBe(true);
    expect(globMatch('', '')).toBe(true);
    expect(globMatch('a*a', 'a')).toBe(false);
    // Characters a regular expression would read as syntax are themselves here.
    expect(globMatch('/a.b(c)?', '/a.b(c)?')).toBe(true);
    expect(globMatch('/a.b', '/axb')).toBe(false);
  });

  it('answers a pathological glob over a 100 KB path, which a backtracking matcher never would', () => {
    const path = `/${'a'.repeat(100_000)}`;
    expect(globMatch('*a*a*a*a*a*a*a*a*b', path)).toBe(false);
    expect(globMatch(`${'*a'.repeat(5_000)}*`, path)).toBe(true);
  });
});
