// Covers: src/server/http/near-miss.ts
import { describe, expect, it } from 'vitest';
import { nearMisses } from '../../src/server/http/near-miss.js';

const post = (status: number, body: unknown, account = 'acc_app') => ({
  time: 1,
  method: 'POST',
  path: '/insurance-coverages',
  status,
  account,
  body,
});

describe('near misses: the requests of the window nearest to a check that found too few', () => {
  const asked = {
    method: 'POST',
    path: '/insurance-coverages',
    status: '200',
    account: 'acc_app',
    body: { contract: 'ctr_globex_2027', type: 'deduction', tags: ['a', 'b'] },
  };
  it('ranks by the filters failed, says which, and diffs the body field by field', () => {
    const window = [
      { time: 1, method: 'GET', path: '/notifications', status: 200, account: 'acc_ci' },
      post(200, { contract: 'ctr_globex_2026', name: 'Globex copay', tags: ['b', 'a'] }),
      post(422, { contract: 'ctr_globex_2027', type: 'deduction', tags: ['a', 'x', 'b'] }),
    ];
    expect(nearMisses(window, asked)).toEqual([
      'the nearest requests of the window (3 did not match):',
      '  POST /insurance-coverages acc_app 422: differs in status',
      '  POST /insurance-coverages acc_app 200: differs in body',
      '    body.contract: "ctr_globex_2026", not "ctr_globex_2027"',
      '    body.type: missing, not "deduction"',
      '    body.tags: ["b","a"], not ["a","b"]',
      '  GET /notifications acc_ci 200: differs in method, path, account, body',
      '    body: not kept whole (none sent)',
    ]);
  });
  it('shows three at most, each value cut, and nothing when no other request is there', () => {
    const long = 'x'.repeat(10_000);
    const window = Array.from({ length: 50 }, () => post(200, { contract: long }));
    const lines = nearMisses(window, asked);
    expect(lines[0]).toBe('the nearest requests of the window (50 did not match):');
    expect(lines.filter((l) => l.startsWith('  POST'))).toHaveLength(3);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(200);
    expect(nearMisses([], asked)).toEqual([]);
  });
});
