// Covers: src/schemas/measures.ts src/schemas/coverages.ts src/schemas/data-file.ts src/schemas/common.ts
// Covers: src/schemas/values.ts
import { describe, expect, it } from 'vitest';
import { parseWith } from '../../src/schemas/common.js';
import { coverageCreateSchema, coveragePatchSchema } from '../../src/schemas/coverages.js';
import { dataFileSchema } from '../../src/schemas/data-file.js';
import { measureCreateSchema, measurePatchSchema } from '../../src/schemas/measures.js';

const paths = (r: ReturnType<typeof parseWith>) => (r.ok ? [] : r.errors.map((e) => e.path).sort());
const messageAt = (r: ReturnType<typeof parseWith>, path: string) =>
  r.ok ? undefined : r.errors.find((e) => e.path === path)?.message;

describe('measure schemas', () => {
  it('accepts a minimal measure and defaults the sex of a range to all', () => {
    const r = parseWith(measureCreateSchema, {
      test: 'tst_1',
      name: 'Potassium',
      referenceRanges: [{ min: 3.5, max: 5.1 }],
    });
    expect(r).toEqual({
      ok: true,
      value: { test: 'tst_1', name: 'Potassium', referenceRanges: [{ min: 3.5, max: 5.1, sex: 'all' }] },
    });
  });

  it('requires test and name, non-empty', () => {
    expect(paths(parseWith(measureCreateSchema, {}))).toEqual(['name', 'test']);
    expect(messageAt(parseWith(measureCreateSchema, { test: ' ', name: 'x' }), 'test')).toBe('test must not be empty');
  });

  it('names the path of a reversed bound inside a range', () => {
    const r = parseWith(measureCreateSchema, {
      test: 't',
      name: 'n',
      referenceRanges: [
        { min: 1, max: 2 },
        { min: 5, max: 4 },
      ],
    });
    expect(paths(r)).toEqual(['referenceRanges[1].max']);
    expect(messageAt(r, 'referenceRanges[1].max')).toBe('min (5) must not be greater than max (4)');
  });

  it('checks simin ≤ simax and ageMin ≤ ageMax in panic ranges too', () => {
    const r = parseWith(measureCreateSchema, {
      test: 't',
      name: 'n',
      panicRanges: [{ min: 1, simin: 9, simax: 3, ageMin: 60, ageMax: 18 }],
    });
    expect(paths(r)).toEqual(['panicRanges[0].ageMax', 'panicRanges[0].simax']);
  });

  it('refuses a range without any bound, precisions outside 0..10 and unknown sexes', () => {
    const r = parseWith(measureCreateSchema, {
      test: 't',
      name: 'n',
      referenceRanges: [
        { sex: 'other', ageMin: 1 },
        { min: 1, minPrecision: 11 },
        { max: 1, maxPrecision: 1.5 },
      ],
    });
    expect(paths(r)).toEqual([
      'referenceRanges[0].sex',
      'referenceRanges[1].minPrecision',
      'referenceRanges[2].maxPrecision',
    ]);
    const noBound = parseWith(measureCreateSchema, { test: 't', name: 'n', referenceRanges: [{ ageMin: 1 }] });
    expect(noBound.ok ? '' : noBound.errors[0].message).toMatch(/at least one of min, max, simin, simax/);
  });

  it('needs choices for multiplechoice and checklist measures', () => {
    expect(paths(parseWith(measureCreateSchema, { test: 't', name: 'n', type: 'checklist' }))).toEqual(['choices']);
    expect(parseWith(measureCreateSchema, { test: 't', name: 'n', type: 'checklist', choices: ['a'] }).ok).toBe(true);
  });

  it('keeps numericBreakdownMin ≤ numericBreakdownMax and refuses unknown types', () => {
    expect(
      paths(parseWith(measureCreateSchema, { test: 't', name: 'n', numericBreakdownMin: 5, numericBreakdownMax: 1 })),
    ).toEqual(['numericBreakdownMax']);
    expect(messageAt(parseWith(measureCreateSchema, { test: 't', name: 'n', type: 'Numeric' }), 'type')).toMatch(
      /must be one of: numeric, posneg/,
    );
  });

  it('refuses unknown and service-set fields by name', () => {
    const r = parseWith(measureCreateSchema, { test: 't', name: 'n', colour: 'red', id: 'x', createdBy: 'me' });
    expect(paths(r)).toEqual(['colour', 'createdBy', 'id']);
    expect(messageAt(r, 'colour')).toBe('unknown field colour');
    expect(messageAt(r, 'id')).toBe('id is set by the service and cannot be sent');
  });

  it('refuses create-only fields on patch, and needs no required field there', () => {
    expect(parseWith(measurePatchSchema, {}).ok).toBe(true);
    const r = parseWith(measurePatchSchema, { test: 't', account: 'a', facility: 'f' });
    expect(paths(r)).toEqual(['account', 'facility', 'test']);
    expect(messageAt(r, 'test')).toBe('test is create-only; it cannot be changed by update');
  });

  it('refuses a body that is not an object', () => {
    expect(parseWith(measureCreateSchema, [])).toEqual({
      ok: false,
      errors: [{ path: '(body)', message: 'must be a JSON object' }],
    });
  });
});

describe('coverage schemas', () => {
  it('requires type, contract and name and checks enums exactly', () => {
    expect(paths(parseWith(coverageCreateSchema, {}))).toEqual(['contract', 'name', 'type']);
    const r = parseWith(coverageCreateSchema, {
      contract: 'c',
      name: 'n',
      type: 'Deduction',
      paymentMethod: 'credit',
      refType: 'service',
    });
    expect(paths(r)).toEqual(['paymentMethod', 'refType', 'type']);
  });

  it('keeps percentage from 0 to 100 and numbers finite', () => {
    const base = { contract: 'c', name: 'n', type: 'override' };
    expect(paths(parseWith(coverageCreateSchema, { ...base, percentage: 101 }))).toEqual(['percentage']);
    expect(paths(parseWith(coverageCreateSchema, { ...base, percentage: -1 }))).toEqual(['percentage']);
    expect(paths(parseWith(coverageCreateSchema, { ...base, amount: Number.POSITIVE_INFINITY }))).toEqual(['amount']);
    expect(parseWith(coverageCreateSchema, { ...base, percentage: 100, amount: 0 }).ok).toBe(true);
  });

  it('refuses insured and insurer on input and contract on patch', () => {
    expect(
      paths(parseWith(coverageCreateSchema, { contract: 'c', name: 'n', type: 'unknown', insured: 'a', insurer: 'b' })),
    ).toEqual(['insured', 'insurer']);
    expect(messageAt(parseWith(coveragePatchSchema, { contract: 'c2' }), 'contract')).toBe(
      'contract is create-only; it cannot be changed by update',
    );
    expect(parseWith(coveragePatchSchema, { name: 'renamed' }).ok).toBe(true);
  });
});

describe('data file schema', () => {
  it('treats a missing key as an empty collection', () => {
    expect(dataFileSchema.parse({})).toEqual({
      diagnosticMeasures: [],
      insuranceCoverages: [],
      notifications: [],
      contracts: [],
    });
  });
});
