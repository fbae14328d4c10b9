// Covers: src/core/sync/plan.ts src/core/sync/prepare.ts src/core/sync/existing.ts src/core/sync/run.ts
// Covers: src/core/sync/measures-spec.ts
import { beforeAll, describe, expect, it } from 'vitest';
import { Existing } from '../../src/core/sync/existing.js';
import { measureSyncSpec } from '../../src/core/sync/measures-spec.js';
import { planOne } from '../../src/core/sync/plan.js';
import { Checker, type Prepared, type SyncSpec } from '../../src/core/sync/prepare.js';
import { type Checked, checkInput, planned } from '../../src/core/sync/run.js';
import { parseRecords, type SourceRecord } from '../../src/formats/records.js';
import { hashOf } from '../../src/strings.js';

/** An index of the server's records, each kept whole, as import plans against them. */
function indexExisting(spec: SyncSpec, existing: Record<string, unknown>[]): Existing {
  const found = new Existing(spec);
  for (const r of existing) found.add(r, true);
  return found;
}

describe('plan', () => {
  // The measures' own spec, as import uses it.
  let spec: SyncSpec;
  beforeAll(async () => {
    spec = await measureSyncSpec();
  });
  /** The plan of records against the server's, as import makes it record by record. */
  const plan = (s: SyncSpec, records: Prepared[], existing: Record<string, unknown>[]) =>
    records.map((r) => planOne(s, r, indexExisting(s, existing)));
  /** Each value checked as import checks it (all are valid here). */
  const prepared = (values: Record<string, unknown>[]) => {
    const checker = new Checker(spec);
    return values.map((value, i) => checker.check({ source: 'in.json', position: i + 1, value })!);
  };

  it('creates what is missing, updates only the fields that differ, and leaves equal records alone', () => {
    const existing = [
      { id: 'msr_1', test: 't', name: 'A', unit: 'mg/dL', referenceRanges: [{ id: 'rr_1', min: 1, sex: 'all' }] },
      { id: 'msr_2', test: 't', name: 'B', unit: 'g/L' },
    ];
    const items = plan(
      spec,
      prepared([
        // Ranges without ids match stored ones whatever ids the service gave them; key order is irrelevant.
        { name: 'A', test: 't', referenceRanges: [{ sex: 'all', min: 1 }], unit: 'mg/dL' },
        { test: 't', name: 'B', unit: 'mmol/L' },
        { test: 't', name: 'C' },
      ]),
      existing,
    );
    expect(items.map((i) => [i.action, i.id])).toEqual([
      ['unchanged', 'msr_1'],
      ['update', 'msr_2'],
      ['create', undefined],
    ]);
    expect(items[1].changes).toEqual([{ field: 'unit', from: 'g/L', to: 'mmol/L' }]);
    expect(items[1].patch).toEqual({ unit: 'mmol/L' });
  });

  it('finds a record by its id first, and refuses to change a create-only field', () => {
    const items = plan(spec, prepared([{ id: 'msr_1', test: 'other', name: 'A' }]), [
      { id: 'msr_1', test: 't', name: 'A' },
    ]);
    expect(items[0]).toMatchObject({ action: 'error', id: 'msr_1' });
    expect(items[0].error).toBe('test ("t" → "other") is create-only and cannot be changed on measure msr_1');
  });
});

describe('checkInput and planned', () => {
  let spec: SyncSpec;
  beforeAll(async () => {
    spec = await measureSyncSpec();
  });
  /** The records as the reader hands them over, one at a time. */
  const sources = (values: Record<string, unknown>[]) => async (each: (r: SourceRecord) => void) => {
    for (const [i, value] of values.entries()) each({ source: 'in.json', position: i + 1, value });
  };
  /** The usage error a check that must fail threw. */
  const refusal = (check: Promise<Checked>) =>
    check.then(
      async (c) => {
        await c.spool.close();
        return expect.unreachable('the check passed');
      },
      (e: { message: string; details: string[] }) => e,
    );

  it('lists each invalid record, and counts lint warnings as errors only with --strict', async () => {
    const input = [{ test: 't', name: 'A', type: 'numeric' }, { test: 't' }];
    const err = await refusal(checkInput(spec, sources(input), false));
    // The warnings beside the errors, in the input's order, so one run shows all there is to fix.
    expect(err).toMatchObject({
      message: '1 invalid record; nothing was sent',
      details: [
        'warning: in.json record 1 (A): unit: a numeric measure has no unit',
        'in.json record 2: name: is required',
      ],
    });
    const checked = await checkInput(spec, sources([input[0]]), false);
    await checked.spool.close();
    expect(checked.spool.count).toBe(1);
    expect((await refusal(checkInput(spec, sources([input[0]]), true))).message).toBe(
      '1 invalid record; nothing was sent',
    );
  });

  it('shows at most 50 errors, then how many more', async () => {
    const input = Array.from({ length: 60 }, () => ({ test: 't' }));
    const err = await refusal(checkInput(spec, sources(input), false));
    expect(err.details).toHaveLength(51);
    expect(err.details[50]).toBe('… and 10 more problems');
  });

  it("keeps a sheet's first 50 problems in its lines' order, whatever order its measures are checked in", async () => {
    // Measure A's rows are lines 2, 62 and 63: it is checked first, with its cells on lines 62 and 63, the
    // file's last problems; B's 59 cells (lines 3 to 61) come after them and before them in the file.
    const rows = ['test,name,type,unit,sex,min,max', 't,A,numeric,mg/dL,Q,1,2'];
    for (let i = 3; i <= 61; i++) rows.push('t,B,numeric,mg/dL,Q,1,2');
    rows.push('t,A,numeric,mg/dL,Q,1,2', 't,A,numeric,mg/dL,Q,1,2');
    const records = parseRecords(`${rows.join('\n')}\n`, 'in.csv');
    expect(records.map((r) => r.value.name)).toEqual(['A', 'B']);
    const err = await refusal(checkInput(spec, async (each) => records.forEach(each), false));
    expect(err.details).toHaveLength(51);
    expect(err.details[0]).toMatch(/^in\.csv:2:5 \(A\): sex: /);
    expect(err.details[1]).toMatch(/^in\.csv:3:5 \(B\): sex: /);
    expect(err.details[49]).toMatch(/^in\.csv:51:5 \(B\): sex: /);
    expect(err.details[50]).toBe('… and 12 more problems');
  });

  it("keeps a measure's first 50 cell errors by column too, when its 50th line holds two", async () => {
    // A row's measure fields are read before its range's, so on line 51 numericBreakdownMin (column 4)
    // is found before min (column 3); the list is the file's order all the same (docs/catalogs.md).
    const rows = ['test,name,min,numericBreakdownMin'];
    for (let i = 0; i < 49; i++) rows.push(`t,O,x${i},`);
    rows.push('t,O,BADMIN,BADNB');
    const records = parseRecords(`${rows.join('\n')}\n`, 'in.csv');
    const err = await refusal(checkInput(spec, async (each) => records.forEach(each), false));
    expect(err.details).toHaveLength(51);
    expect(err.details[49]).toMatch(/^in\.csv:51:3 \(O\): min: .*"BADMIN"/);
    expect(err.details[50]).toBe('… and 1 more problem');
  });

  it('names where a repeated key was first seen, however far back', async () => {
    const input = Array.from({ length: 3000 }, (_, i) => ({ test: 't', name: `M${i}` }));
    input.push({ test: 't', name: 'M7' });
    const err = await refusal(checkInput(spec, sources(input), false));
    expect(err.details).toEqual(['in.json record 3001 (M7): the same test t and name M7 as in.json record 8 (M7)']);
  });

  it('tells two keys that share a hash from a repeated key', async () => {
    // Found by search: these two keys have the same 32-bit hash, which the check keeps instead of the key.
    expect(hashOf('t\u0000M86664')).toBe(hashOf('t\u0000M1302840'));
    const input: Record<string, unknown>[] = [
      { test: 't', name: 'M86664' },
      { test: 't', name: 'X' },
      { test: 't', name: 'M1302840' },
    ];
    const checked = await checkInput(spec, sources(input), false);
    await checked.spool.close();
    expect(checked.spool.count).toBe(3);
    input.push({ test: 't', name: 'M1302840' }, { test: 'u' });
    const err = await refusal(checkInput(spec, sources(input), false));
    expect(err.message).toBe('2 invalid records; nothing was sent');
    expect(err.details).toEqual([
      'in.json record 4 (M1302840): the same test t and name M1302840 as in.json record 3 (M1302840)',
      'in.json record 5: name: is required',
    ]);
  });

  it('refuses an input without records', async () => {
    await expect(checkInput(spec, sources([]), false)).rejects.toThrow('no measures in the input; nothing was sent');
  });

  it('plans the checked records as they are read back, in order', async () => {
    const checked = await checkInput(
      spec,
      sources([
        { test: 't', name: 'A' },
        { test: 't', name: 'B' },
      ]),
      false,
    );
    const items = [];
    for await (const batch of planned(spec, checked, indexExisting(spec, [{ id: 'msr_b', test: 't', name: 'B' }])))
      items.push(...batch);
    await checked.spool.close();
    expect(items.map((i) => [i.rec.name, i.action, i.id])).toEqual([
      ['A', 'create', undefined],
      ['B', 'unchanged', 'msr_b'],
    ]);
  });
});
