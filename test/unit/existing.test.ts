// Covers: src/core/sync/existing.ts
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonical, comparable, Existing } from '../../src/core/sync/existing.js';
import type { SyncSpec } from '../../src/core/sync/prepare.js';

// An import plans against digests of the server's records (existing.ts): a record is "the same" only
// when the whole-record comparison the plan made before would find no change. Checked here against that
// comparison on records built to collide often: small value sets, ranges with and without ids.

const spec = {
  key: (r: Record<string, unknown>) => JSON.stringify([r.test, r.name]),
  label: (r: Record<string, unknown>) => `test ${r.test} and name ${r.name}`,
  scope: 'test',
} as unknown as SyncSpec;

const range = fc.record(
  { id: fc.constantFrom('rr_1', 'rr_2'), min: fc.constantFrom(1, 2), sex: fc.constantFrom('all', 'male') },
  { requiredKeys: ['min'] },
);
const fields = {
  unit: fc.constantFrom('mg/dL', 'g/L', null),
  set: fc.constantFrom('A', 'B'),
  sets: fc.constantFrom(['x'], ['x', 'y'], []),
  section: fc.constantFrom({ a: 1, b: 2 }, { b: 2, a: 1 }, { a: 2 }),
  referenceRanges: fc.array(range, { maxLength: 3 }),
};
const body = fc.record(fields, { requiredKeys: [] });

/** The plan's own rule, field by field: a change is a field whose canonical JSON differs. */
const changed = (stored: Record<string, unknown>, incoming: Record<string, unknown>) =>
  Object.entries(incoming).some(([f, to]) => canonical(to) !== canonical(comparable(f, to, stored[f])));

describe('the digests of the server records', () => {
  it('call a record the same exactly when the whole-record comparison finds no change', () => {
    let same = 0;
    fc.assert(
      fc.property(body, body, (storedFields, incoming) => {
        const stored = { id: 'msr_1', test: 't', name: 'N', createdAt: 1, ...storedFields };
        const found = new Existing(spec);
        found.add(stored);
        const s = found.match(undefined, spec.key(stored))!;
        const verdict = found.same(s, incoming);
        const ranges = incoming.referenceRanges as { id?: string }[] | undefined;
        const mixed = !!ranges && ranges.some((r) => r.id) && ranges.some((r) => !r.id);
        // Never the same when something changed; always the same when nothing did (bar mixed range ids,
        // which go to the whole record).
        if (verdict) expect(changed(stored, incoming)).toBe(false);
        else if (!mixed) expect(changed(stored, incoming)).toBe(true);
        if (verdict) same++;
      }),
      { numRuns: 20_000 },
    );
    // The generators make equal records often enough for the first rule to be tried.
    expect(same).toBeGreaterThan(100);
  });

  it('matches by the id an input carries, else by its key, and keeps nothing whole unless asked', () => {
    const found = new Existing(spec);
    found.add({ id: 'msr_9', test: 'tst_bmp', name: 'Sodium', unit: 'mmol/L' });
    found.add(null as unknown as Record<string, unknown>);
    found.add({ id: 'msr_8', test: 'tst_bmp', name: 'Potassium' }, true);
    expect(found.size).toBe(2);
    expect(found.match('msr_8', spec.key({ test: 'tst_bmp', name: 'Sodium' }))?.id).toBe('msr_8');
    expect(found.match(undefined, spec.key({ test: 'tst_bmp', name: 'Sodium' }))?.id).toBe('msr_9');
    expect(found.match('msr_gone', spec.key({ test: 'x', name: 'y' }))).toBeUndefined();
    expect([...found.whole.keys()]).toEqual(['msr_8']);
  });
});
