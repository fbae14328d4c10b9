// Covers: src/core/unheld.ts src/formats/fhir/interval-limits.ts src/formats/hl7/to-measure.ts
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// A range a file limits to people a measure's range cannot name (HL7 RFR-4 gestational age, RFR-6 race,
// RFR-7 conditions; FHIR context, appliesTo, gestationalAge, a gender or an age it cannot read) is never held
// without that limit: it would hold for more people than written. Import and lint stop on it by default,
// naming the range, its place and the limit; --leave-out-ranges imports the measure without it, said.

const FIXTURES = new URL('../fixtures/', import.meta.url);
const server = () => cliOnServer({ events: false });
type Rec = Record<string, unknown>;

async function withFile(name: string, fixture: string) {
  const s = await server();
  await writeFile(join(s.dir, name), await readFile(new URL(fixture, FIXTURES)));
  return s;
}

describe('ranges for people a range cannot name', () => {
  it('HL7: lint and import stop on an RFR limited by condition, race or gestational age, naming each', async () => {
    const { s, cli } = await withFile('q.hl7', 'hl7/qualified-ranges.hl7');
    const lint = await cli(['measures', 'lint', 'q.hl7', '--test', 'tst_q']);
    expect(lint.code).toBe(2);
    const tail = "a measure's range cannot hold that limit, and without it the range would hold for more people";
    const flag = '--leave-out-ranges imports the measure without it';
    expect(lint.stderr).toContain(
      'q.hl7 line 3 (Thyrotropin [Units/volume] in Serum or Plasma): segment 5 (OM2-6) repetition 2: ' +
        `a range only for condition (RFR-7) "first trimester of pregnancy": ${tail}; ${flag}`,
    );
    expect(lint.stderr).toContain(
      'q.hl7 line 6 (Creatinine [Mass/volume] in Serum or Plasma): segment 8 (OM2-6) repetition 2: ' +
        `a range only for race or subspecies (RFR-6) "B": ${tail}; ${flag}`,
    );
    expect(lint.stderr).toContain(
      'q.hl7 line 9 (Glucose [Mass/volume] in Serum or Plasma): segment 11 (OM2-6) repetition 2: ' +
        `a range only for gestational age (RFR-4) "24–42": ${tail}; ${flag}`,
    );
    const imp = await cli(['measures', 'import', 'q.hl7', '--test', 'tst_q']);
    expect(imp.code).toBe(2);
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });

  it('HL7: --leave-out-ranges imports each measure without those ranges, each listed as left out', async () => {
    const { s, cli } = await withFile('q.hl7', 'hl7/qualified-ranges.hl7');
    const r = await cli(['measures', 'import', 'q.hl7', '--test', 'tst_q', '--leave-out-ranges']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'warning: q.hl7 line 3 (Thyrotropin [Units/volume] in Serum or Plasma): segment 5 (OM2-6) repetition 2: ' +
        'a range only for condition (RFR-7) "first trimester of pregnancy": range left out',
    );
    expect(r.stderr).toContain('a range only for race or subspecies (RFR-6) "B": range left out');
    expect(r.stderr).toContain('a range only for gestational age (RFR-4) "24–42": range left out');
    const list = (await s.call('GET', '/diagnostic-measures')).body as Rec[];
    const ranges = (code: string) =>
      (list.find((m) => m.hl7IdentifierCod === code)!.referenceRanges as Rec[]).map(({ id: _id, ...r }) => r);
    // Only the ranges for everyone of their sex and ages are held.
    expect(ranges('3016-3')).toEqual([{ min: 0.4, max: 4, maxPrecision: 1, sex: 'all', ageMin: 18, ageMax: 120 }]);
    expect(ranges('2160-0')).toEqual([{ min: 0.7, max: 1.3, sex: 'male', ageMin: 18, ageMax: 120 }]);
    expect(ranges('2345-7')).toEqual([{ min: 70, max: 99, sex: 'all' }]);
    // The case: TSH 3.0 in a woman of 30 is within 0.4–4.0, not above a first-trimester 2.5.
    const tsh = await cli([
      'measures',
      'evaluate',
      'Thyrotropin [Units/volume] in Serum or Plasma',
      '--value',
      '3.0',
      '--sex',
      'female',
      '--age',
      '30',
      '-o',
      'json',
    ]);
    expect(tsh.code, tsh.stderr).toBe(0);
    expect(JSON.parse(tsh.stdout)).toMatchObject({ interpretation: 'normal' });
  });

  it('FHIR: an interval limited by context, appliesTo or gestationalAge stops lint and import', async () => {
    const { s, cli } = await withFile('partner.json', 'fhir/partner-bundle.json');
    const at = 'partner.json entry[0] (Glucose [Mass/volume] in Serum or Plasma)';
    const lint = await cli(['measures', 'lint', 'partner.json', '--test', 'tst_chem']);
    expect(lint.code).toBe(2);
    expect(lint.stderr).toContain(`${at}: qualifiedInterval[2].context: a range only for context "fasting": `);
    expect(lint.stderr).toContain(`${at}: qualifiedInterval[3].appliesTo: a range only for appliesTo "pregnancy": `);
    expect(lint.stderr).toContain(
      `${at}: qualifiedInterval[3].gestationalAge: a range only for gestational age "20 wk–": `,
    );
    expect((await cli(['measures', 'import', 'partner.json', '--test', 'tst_chem'])).code).toBe(2);
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
    const r = await cli(['measures', 'import', 'partner.json', '--test', 'tst_chem', '--leave-out-ranges']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `warning: ${at}: qualifiedInterval[2].context: a range only for context "fasting": range left out`,
    );
  });

  it('FHIR: a gender other than male or female, or an age it cannot read, is never held as everyone', async () => {
    const { s, dir, cli } = await server();
    const interval = (extra: Rec) => ({
      category: 'reference',
      range: { low: { value: 1, unit: 'mg/dL' }, high: { value: 2, unit: 'mg/dL' } },
      ...extra,
    });
    const od = {
      resourceType: 'ObservationDefinition',
      code: { text: 'Analyte' },
      permittedDataType: ['Quantity'],
      quantitativeDetails: { customaryUnit: { text: 'mg/dL' } },
      qualifiedInterval: [
        interval({ gender: 'other' }),
        interval({ age: { low: { value: 2, unit: 'fortnights' } } }),
        interval({ gender: 'female' }),
      ],
    };
    await writeFile(join(dir, 'od.json'), JSON.stringify(od));
    const lint = await cli(['measures', 'lint', 'od.json', '--test', 'tst_x']);
    expect(lint.code).toBe(2);
    expect(lint.stderr).toContain('qualifiedInterval[0].gender: a range only for gender "other", not male or female');
    expect(lint.stderr).toContain(
      'qualifiedInterval[1].age.low: a range only for an age in "fortnights", not an age unit',
    );
    const r = await cli(['measures', 'import', 'od.json', '--test', 'tst_x', '--leave-out-ranges']);
    expect(r.code, r.stderr).toBe(0);
    const [m] = (await s.call('GET', '/diagnostic-measures')).body as Rec[];
    expect((m.referenceRanges as Rec[]).map(({ id: _id, ...x }) => x)).toEqual([{ min: 1, max: 2, sex: 'female' }]);
  });
});
