// Covers: src/server/http/request-log.ts src/formats/json/record-json.ts
import { describe, expect, it } from 'vitest';
import { recordJson } from '../../src/formats/json/record-json.js';
import { holds, RequestLog, RequestLogFilterError } from '../../src/server/http/request-log.js';

const entry = (i: number) => ({ time: 0, method: 'POST', path: '/diagnostic-measures', status: 200, account: `a${i}` });

describe('RequestLog bytes', () => {
  it('counts a body outside Latin-1 at two bytes a character, as V8 stores it', () => {
    // 100 bodies of 10,000 characters: a cap of 1 MB keeps about 100 of ASCII, about 50 of CJK.
    const kept = (char: string) => {
      const log = new RequestLog(10_000, 1_000_000);
      for (let i = 0; i < 100; i++) log.record(entry(i), JSON.stringify({ name: char.repeat(10_000) }), true);
      return log.list().length;
    };
    expect(kept('a')).toBeGreaterThan(90);
    expect(kept('\u6c34')).toBeLessThanOrEqual(50);
  });
});

describe('holds: a recorded body holds a pattern as WireMock equalToJson with ignoreExtraElements does', () => {
  // WireMock's documentation of equalToJson: with ignoreExtraElements, fields and array elements present in the
  // request and absent from the expected JSON are ignored; without ignoreArrayOrder, array order counts.
  const body = { contract: 'ctr_a', name: 'Copay', amount: 10, tags: ['a', 'b', 'c'], ranges: [{ min: 1, max: 2 }] };
  it('matches a subset of the fields, at any depth', () => {
    expect(holds(body, { name: 'Copay' })).toBe(true);
    expect(holds(body, { amount: 10.0, ranges: [{ max: 2 }] })).toBe(true);
    expect(holds(body, {})).toBe(true);
    expect(holds(body, { name: 'Other' })).toBe(false);
    expect(holds(body, { missing: null })).toBe(false);
    expect(holds(body, { amount: '10' })).toBe(false);
  });
  it('matches array elements in order, extra elements ignored', () => {
    expect(holds(body, { tags: ['a', 'c'] })).toBe(true);
    expect(holds(body, { tags: [] })).toBe(true);
    expect(holds(body, { tags: ['c', 'a'] })).toBe(false);
    expect(holds(body, { tags: ['a', 'a'] })).toBe(false);
    expect(holds(body, { tags: 'a' })).toBe(false);
    expect(holds([{ a: 1, b: 2 }, { a: 1 }], [{ a: 1 }, { a: 1 }])).toBe(true);
  });
});

describe('the request log filters by account, mark and body', () => {
  const entry = (path: string, account?: string) => ({ time: 1, method: 'POST', path, status: 200, account });
  it('lists what came after a mark, from one account, holding a body', () => {
    const j = new RequestLog(100, 1 << 20, true);
    j.record(entry('/a', 'acc_seed'), '{"name":"Seed"}', true);
    j.mark('app');
    j.record(entry('/b', 'acc_app'), '{"name":"App","amount":5}', true);
    j.record(entry('/c', 'acc_seed'), '{"name":"App"}', true);
    const paths = (f: object) => j.list(f).map((e) => JSON.parse(recordJson(e)).path);
    expect(paths({ since: 'app' })).toEqual(['/b', '/c']);
    expect(paths({ since: 'app', account: 'acc_app' })).toEqual(['/b']);
    expect(paths({ body: { name: 'App' } })).toEqual(['/b', '/c']);
    expect(paths({ body: { name: 'App' }, account: 'acc_seed' })).toEqual(['/c']);
    expect(() => j.list({ since: 'nope' })).toThrow(RequestLogFilterError);
    j.clear();
    j.record(entry('/d', 'acc_app'), '{}', true);
    expect(paths({ since: 'app' })).toEqual(['/d']);
    expect(() => new RequestLog(10).list({ body: {} })).toThrow(/--record-bodies/);
  });
});

describe('the request log says what a window holds that its list cannot show', () => {
  const get = (i: number) => ({ time: i, method: 'GET', path: '/notifications', status: 200, account: 'acc_app' });
  it('counts the requests of a window dropped past --journal-requests, and names that limit', () => {
    const j = new RequestLog(5);
    j.record(get(0));
    j.mark('app');
    for (let i = 1; i <= 8; i++) j.record(get(i));
    expect(j.list({ since: 'app' })).toHaveLength(5);
    expect(j.window('app')).toEqual({ dropped: 3, limit: 'journal-requests', refused: 0 });
    // The request before the mark was dropped too, but it is not the window's.
    expect(j.window()).toEqual({ dropped: 4, limit: 'journal-requests', refused: 0 });
    expect(j.window('nope')).toBeUndefined();
  });
  it('counts every request of a window as dropped when the request log is off', () => {
    const j = new RequestLog(0);
    j.mark('app');
    for (let i = 0; i < 8; i++) j.record(get(i));
    expect(j.list({ since: 'app' })).toEqual([]);
    expect(j.window('app')).toMatchObject({ dropped: 8 });
  });
  it('names --journal-bytes when the bytes dropped them, and a clear drops nothing', () => {
    const j = new RequestLog(100, 2_000, true);
    for (let i = 0; i < 20; i++) j.record(get(i), JSON.stringify({ text: 'x'.repeat(200) }), true);
    expect(j.window()).toMatchObject({ dropped: expect.any(Number), limit: 'journal-bytes' });
    j.clear();
    j.record(get(21));
    expect(j.window()).toEqual({ dropped: 0, refused: 0 });
  });
  it('counts strangers apart: they are never listed and evict nothing', () => {
    const j = new RequestLog(3);
    j.record(get(0));
    j.mark('app');
    j.record(get(1));
    for (let i = 0; i < 10_000; i++) j.refuse();
    expect(j.list()).toHaveLength(2);
    expect(j.window('app')).toEqual({ dropped: 0, refused: 10_000 });
    j.clear();
    expect(j.window('app')).toEqual({ dropped: 0, refused: 0 });
  });
});

describe('a refused request keeps its body as an accepted one does', () => {
  const post = (status: number) => ({
    time: 1,
    method: 'POST',
    path: '/insurance-coverages',
    status,
    account: 'acc_app',
  });
  it('keeps a refused JSON body whole, so a body filter matches it; text that was not JSON as its start', () => {
    const j = new RequestLog(100, 1 << 20, true);
    const sent = '{"contract":"ctr_globex_2027","name":"Globex copay","type":"deduction","amount":12}';
    j.record(post(422), sent, true);
    j.record(post(400), '{"contract": oops', false);
    const all = j.list().map((e) => JSON.parse(recordJson(e)));
    expect(all[0]).toMatchObject({ status: 422, body: JSON.parse(sent) });
    expect(all[0].bodyStart).toBeUndefined();
    expect(all[1]).toMatchObject({ status: 400, bodyStart: '{"contract": oops', bodyBytes: 17 });
    expect(j.list({ body: { contract: 'ctr_globex_2027', type: 'deduction' } })).toHaveLength(1);
    expect(j.list({ body: { contract: 'ctr_globex_2027' }, status: 200 })).toHaveLength(0);
  });
});
