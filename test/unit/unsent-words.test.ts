// Covers: src/core/sync/execute.ts
import { describe, expect, it } from 'vitest';
import { unsentWords } from '../../src/core/sync/execute.js';

// The end of the sentence a stopped import closes with (--timeout passed, or Ctrl-C): it read
// "0 measures were not sent" when everything had gone, and "1 measures" for one.
describe('what a stopped run left unsent, in words', () => {
  const measures = { noun: 'measure', plural: 'measures' };
  it('says nothing was left when nothing was, and counts one and many as English does', () => {
    expect(unsentWords(0, measures)).toBe('nothing was left unsent');
    expect(unsentWords(1, measures)).toBe('1 measure was not sent');
    expect(unsentWords(14, measures)).toBe('14 measures were not sent');
    expect(unsentWords(1, { noun: 'coverage', plural: 'coverages' })).toBe('1 coverage was not sent');
  });
});
