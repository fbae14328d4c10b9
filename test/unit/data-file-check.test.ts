// Covers: src/server/store/data-file.ts src/schemas/data-file.ts src/schemas/ajv-check.ts
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dataFileSchema } from '../../src/schemas/data-file.js';
import { fastCheck, REFINEMENTS } from '../../src/server/store/data-file.js';
import { generatedCatalog } from '../helpers/catalog.js';

// The data file's fast check (ajv over zod's JSON Schema) must never say yes where zod says no; and on
// good files it must say yes, or it saves nothing.

const stored = (m: Record<string, unknown>, i: number): Record<string, unknown> => ({
  ...m,
  id: `msr_${i}`,
  createdAt: 1_790_000_000_000 + i,
  createdBy: 'acc',
  ...(Array.isArray(m.referenceRanges)
    ? { referenceRanges: (m.referenceRanges as object[]).map((r, k) => ({ id: `rr_${i}_${k}`, ...r })) }
    : {}),
});

const goodFile = (): File => ({
  diagnosticMeasures: generatedCatalog(300).map(stored),
  insuranceCoverages: [
    {
      id: 'cov_1',
      createdAt: 1,
      createdBy: 'a',
      contract: 'c',
      insured: 'i',
      insurer: 'j',
      name: 'N',
      type: 'override',
    },
  ],
  notifications: [{ id: 'n1', createdAt: 2, code: 'c', type: 't', title: 'T', body: 'B', meta: { a: [1] } }],
  contracts: [{ id: 'c', insured: 'i', insurer: 'j' }],
});

type Rec = Record<string, unknown>;
type File = { diagnosticMeasures: Rec[]; insuranceCoverages: Rec[]; notifications: Rec[]; contracts: Rec[] };

/** Damage of the kinds a hand-edited file has, each at a random record. */
const damage: ((f: File, i: number) => void)[] = [
  (f, i) => {
    f.diagnosticMeasures[i].name = '  padded  ';
  },
  (f, i) => {
    f.diagnosticMeasures[i].name = '';
  },
  (f, i) => {
    delete f.diagnosticMeasures[i].test;
  },
  (f, i) => {
    f.diagnosticMeasures[i].colour = 'red';
  },
  (f, i) => {
    f.diagnosticMeasures[i].type = 'numeric-ish';
  },
  (f, i) => {
    f.diagnosticMeasures[i].referenceRanges = [{ min: 5, max: 3 }];
  },
  (f, i) => {
    f.diagnosticMeasures[i].referenceRanges = [{ sex: 'all' }];
  },
  (f, i) => {
    f.diagnosticMeasures[i].panicRanges = [{ min: 1, minPrecision: 11 }];
  },
  (f, i) => {
    f.diagnosticMeasures[i].referenceRanges = [{ min: 1, ageMin: -1 }];
  },
  (f, i) => {
    Object.assign(f.diagnosticMeasures[i], { type: 'checklist', choices: [] });
  },
  (f, i) => {
    Object.assign(f.diagnosticMeasures[i], { numericBreakdownMin: 9, numericBreakdownMax: 1 });
  },
  (f, i) => {
    f.diagnosticMeasures[i].createdAt = 1.5;
  },
  (f, i) => {
    f.diagnosticMeasures[i].createdBy = 7;
  },
  (f) => {
    f.insuranceCoverages[0].percentage = 101;
  },
  (f) => {
    f.notifications[0].seenBy = 'acc';
  },
  (f) => {
    f.contracts[0].insurer = '';
  },
];

describe('the data file fast check', () => {
  it('says yes to a good file, filling in defaults as zod does', () => {
    const file = goodFile();
    const zod = dataFileSchema.parse(structuredClone(file));
    const check = fastCheck();
    expect(check).toBeDefined();
    expect(check!(file)).toBe(true);
    expect(file.notifications[0]).toMatchObject({ seenBy: [] });
    expect(JSON.parse(JSON.stringify(file))).toEqual(JSON.parse(JSON.stringify(zod)));
  });

  it('never says yes where zod says no, whatever the damage', () => {
    fc.assert(
      fc.property(
        // Each at a record of its own: a padded name written over an empty one would undo that damage.
        fc.uniqueArray(fc.tuple(fc.nat(damage.length - 1), fc.nat(299)), {
          minLength: 1,
          maxLength: 3,
          selector: ([, i]) => i,
        }),
        (hits) => {
          const file = goodFile();
          for (const [d, i] of hits) damage[d](file, i);
          const zodOk = dataFileSchema.safeParse(structuredClone(file)).success;
          // A padded name is good to zod, which trims it: the fast check leaves that to zod too.
          if (hits.some(([d]) => d !== 0)) expect(zodOk).toBe(false);
          expect(fastCheck()!(file)).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('runs every refinement the schemas have (a superRefine added to them must be added to it too)', () => {
    // Walks the zod schema tree and counts the custom checks (superRefine) on it.
    const seen = new Set<unknown>();
    const count = (s: unknown): number => {
      if (!s || typeof s !== 'object' || seen.has(s)) return 0;
      seen.add(s);
      const def = (s as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
      if (!def) return 0;
      let n = ((def.checks as { _zod: { def: { check: string } } }[] | undefined) ?? []).filter(
        (c) => c._zod.def.check === 'custom',
      ).length;
      for (const key of ['innerType', 'element', 'left', 'right', 'in', 'out', 'valueType']) n += count(def[key]);
      for (const child of Object.values((def.shape as Record<string, unknown> | undefined) ?? {})) n += count(child);
      return n;
    };
    expect(count(dataFileSchema)).toBe(REFINEMENTS);
  });
});
