import { describe, expect, it } from 'vitest';
import { RequestJournal } from '../../src/server/requests.js';

const entry = (i: number) => ({ time: 0, method: 'POST', path: '/diagnostic-measures', status: 200, account: `a${i}` });

describe('RequestJournal bytes', () => {
  it('counts a body outside Latin-1 at two bytes a character, as V8 stores it', () => {
    // 100 bodies of 10,000 characters: a cap of 1 MB keeps about 100 of ASCII, about 50 of CJK.
    const kept = (char: string) => {
      const journal = new RequestJournal(10_000, 1_000_000);
      for (let i = 0; i < 100; i++) journal.record(entry(i), JSON.stringify({ name: char.repeat(10_000) }));
      return journal.list().length;
    };
    expect(kept('a')).toBeGreaterThan(90);
    expect(kept('\u6c34')).toBeLessThanOrEqual(50);
  });
});
