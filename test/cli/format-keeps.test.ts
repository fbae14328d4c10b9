// Covers: src/formats/kept.ts src/core/sync/plan.ts
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sameServerText } from '../helpers/round-trip.js';
import { cliOnServer } from '../helpers/server.js';

// A format that cannot carry a field never clears it (docs/catalogs.md, "Fields and formats"). HL7 v2's RFR
// holds a range in OM2-2's unit only (v2.5.1 8.8.4.6), OM1-3 has one data type for numeric and
// numeric-breakdown (NM), for multiplechoice and checklist (CWE); a FHIR R4 resource without our extensions
// has one permittedDataType for numeric and numeric-breakdown (Quantity) and one system URI,
// http://loinc.org, for LN (https://hl7.org/fhir/R4/terminologies-systems.html). Importing such a file
// leaves those fields as the server holds them, and the plan says nothing changed.

type Rec = Record<string, unknown>;

const CATALOG: Rec[] = [
  {
    test: 'tst_bmp',
    name: 'Glucose',
    type: 'numeric-breakdown',
    unit: 'mg/dL',
    siunit: 'mmol/L',
    hl7IdentifierCod: '2345-7',
    hl7IdentifierSys: 'http://loinc.org',
    numericBreakdownMin: 0,
    numericBreakdownMax: 5,
    referenceRanges: [
      { min: 70, max: 99, simin: 3.9, simax: 5.5, siminPrecision: 1, simaxPrecision: 1, sex: 'all' },
      { simin: 3.5, simax: 6.1, sex: 'male', ageMin: 18 },
    ],
    panicRanges: [{ min: 40, max: 500, simin: 2.2, simax: 27.8 }],
  },
  // One factor explains its SI bound (conversionFactor 10000): a reader derives 0.01, not the server's 0.010.
  { test: 'tst_bmp', name: 'Trace', type: 'numeric', panicRanges: [{ min: 0.000001, simin: 0.01, siminPrecision: 3 }] },
  // Its factor to 12 digits gives 233.290000000501: the server's 233.29 to what the factor says.
  { test: 'tst_cmp', name: 'Urate', type: 'numeric', panicRanges: [{ min: 1.320353217019455, simin: 233.29 }] },
  // Two tests hold Sodium under one LOINC code: each keeps its own test.
  {
    test: 'tst_bmp',
    name: 'Sodium',
    type: 'numeric',
    unit: 'mmol/L',
    hl7IdentifierCod: '2951-2',
    hl7IdentifierSys: 'LN',
  },
  {
    test: 'tst_cmp',
    name: 'Sodium',
    type: 'numeric',
    unit: 'mmol/L',
    hl7IdentifierCod: '2951-2',
    hl7IdentifierSys: 'LN',
  },
  // A ValueSet lists an answer once; the repeat is the server's to keep.
  { test: 'tst_ua', name: 'Findings', type: 'checklist', choices: ['Casts', 'Crystals', 'Casts'] },
  // No type: none is made up.
  { test: 'tst_ua', name: 'Remark', referenceRanges: [{ min: 1, max: 2 }] },
  // Its one range in SI bounds alone: HL7 has no place for it, so no OM2 at all, and the import keeps it.
  { test: 'tst_ua', name: 'Ratio', panicRanges: [{ simin: 0 }] },
];

async function loaded() {
  const from = await cliOnServer({ events: false });
  for (const m of CATALOG) expect((await from.s.call('POST', '/diagnostic-measures', m)).status).toBe(200);
  return from;
}

const held = async (s: Awaited<ReturnType<typeof cliOnServer>>) =>
  ((await s.s.call('GET', '/diagnostic-measures')).body as Rec[]).sort((a, b) =>
    `${a.test} ${a.name}`.localeCompare(`${b.test} ${b.name}`),
  );

/** Every extension removed, as a FHIR server that does not know ours keeps the file. */
function stripped(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripped);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => k !== 'extension' && k !== 'modifierExtension')
      .map(([k, x]) => [k, stripped(x)]),
  );
}

describe('a format that cannot carry a field leaves it as the server has it', () => {
  it('HL7: re-importing the export plans nothing, and the import keeps SI bounds and types', async () => {
    const from = await loaded();
    const before = await held(from);
    expect((await from.cli(['measures', 'export', '--format', 'hl7', '--out', 'c.hl7'])).code).toBe(0);
    const dry = await from.cli(['measures', 'import', 'c.hl7', '--dry-run', '--exit-code']);
    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    expect(dry.stdout).toContain('dry run: 0 to create, 0 to update, 8 unchanged, 0 in error');
    const real = await from.cli(['measures', 'import', 'c.hl7']);
    expect(real.code, real.stderr).toBe(0);
    expect(await held(from)).toEqual(before);
  });

  it('HL7: into an empty server, each measure finds its own test and a measure without a type has none', async () => {
    const from = await loaded();
    expect((await from.cli(['measures', 'export', '--format', 'hl7', '--out', 'c.hl7'])).code).toBe(0);
    const to = await cliOnServer({ events: false });
    await writeFile(join(to.dir, 'c.hl7'), await readFile(join(from.dir, 'c.hl7')));
    const r = await to.cli(['measures', 'import', 'c.hl7']);
    expect(r.code, r.stderr).toBe(0);
    const list = await held(to);
    expect(list.map((m) => `${m.test} ${m.name}`)).toEqual([
      'tst_bmp Glucose',
      'tst_bmp Sodium',
      'tst_bmp Trace',
      'tst_cmp Sodium',
      'tst_cmp Urate',
      'tst_ua Findings',
      'tst_ua Ratio',
      'tst_ua Remark',
    ]);
    expect(list[7].type).toBeUndefined();
    expect(list[6].panicRanges).toBeUndefined();
    // The same file again, from the empty serve it went into: the same text but for the time and ids.
    expect((await to.cli(['measures', 'export', '--format', 'hl7', '--out', 'again.hl7'])).code).toBe(0);
    const [first, again] = await Promise.all([
      readFile(join(from.dir, 'c.hl7'), 'utf8'),
      readFile(join(to.dir, 'again.hl7'), 'utf8'),
    ]);
    expect(sameServerText(again)).toBe(sameServerText(first));
  });

  it('CSV: texts the server holds with spaces around them, which a sheet does not keep, plan no change', async () => {
    // RFC 4180 keeps spaces in a field; a lab's sheet does not (docs/catalogs.md), so the server's stay.
    const from = await cliOnServer({ events: false });
    const spaced = {
      test: 'tst_x',
      name: 'Spaced',
      description: ' Serum, fasting\n',
      sets: [' A', 'B '],
      unit: 'mg/dL ',
    };
    expect((await from.s.call('POST', '/diagnostic-measures', spaced)).status).toBe(200);
    const before = await held(from);
    expect((await from.cli(['measures', 'export', '--format', 'csv', '--out', 'c.csv'])).code).toBe(0);
    const dry = await from.cli(['measures', 'import', 'c.csv', '--dry-run', '--exit-code']);
    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    expect((await from.cli(['measures', 'import', 'c.csv'])).code).toBe(0);
    expect(await held(from)).toEqual(before);
  });

  it('FHIR without our extensions: a re-import plans nothing, and keeps type, LOINC system, SI bounds', async () => {
    const from = await loaded();
    const before = await held(from);
    expect((await from.cli(['measures', 'export', '--format', 'fhir', '--out', 'c.json'])).code).toBe(0);
    const bare = stripped(JSON.parse(await readFile(join(from.dir, 'c.json'), 'utf8'))) as Rec;
    // Without our extensions a resource names no test: one test at a time, as --test gives it.
    for (const test of ['tst_bmp', 'tst_cmp', 'tst_ua']) {
      const ids = new Set(before.filter((m) => m.test === test).map((m) => m.id));
      const entries = (bare.entry as Rec[]).filter((e) =>
        ((e.resource as Rec).identifier as Rec[]).some((i) => ids.has(i.value)),
      );
      await writeFile(join(from.dir, `${test}.json`), JSON.stringify({ ...bare, entry: entries }));
      const dry = await from.cli(['measures', 'import', `${test}.json`, '--test', test, '--dry-run', '--exit-code']);
      expect(dry.code, dry.stdout + dry.stderr).toBe(0);
      const real = await from.cli(['measures', 'import', `${test}.json`, '--test', test]);
      expect(real.code, real.stderr).toBe(0);
    }
    expect(await held(from)).toEqual(before);
  });
});
