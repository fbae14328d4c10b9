// Covers: src/formats/fhir/from-observation-definition.ts src/formats/fhir/unread.ts
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// FHIR R5's ObservationDefinition (qualifiedValue with rangeCategory, permittedUnit) read under R4's rules, the
// version told from the content; every element no measure field holds named once by its path, with a count.
// Expected answers from the R5 text: qualifiedValue.rangeCategory "reference" is a reference range, its Range
// inclusive at both ends; a context of referencerange-meaning "normal" says the range is the normal one.

const FIXTURES = new URL('../fixtures/fhir/', import.meta.url);
type Rec = Record<string, unknown>;
const strip = (ranges: unknown) => (ranges as Rec[]).map(({ id: _id, ...r }) => r);

describe('FHIR R5 ObservationDefinitions', () => {
  it("reads the Order Catalog IG's serum potassium: its normal qualifiedValues are the reference ranges", async () => {
    const { s, dir, cli } = await cliOnServer({ events: false });
    await writeFile(join(dir, 'k.json'), await readFile(new URL('order-catalog-serum-potassium.json', FIXTURES)));
    const r = await cli(['measures', 'import', 'k.json', '--test', 'tst_k']);
    expect(r.code, r.stderr).toBe(0);
    const at = 'warning: k.json record 1 (Potassium)';
    for (const path of ['status', 'category', 'method'])
      expect(r.stderr).toContain(`${at}: ${path}: not read: a measure has no field for it, so it is left out\n`);
    const [m] = (await s.call('GET', '/diagnostic-measures')).body as Rec[];
    expect(m).toMatchObject({ name: 'Potassium', hl7IdentifierCod: '2823-3', unit: 'g/L', siunit: 'mmol/L' });
    // The ranges are in mmol/L, the SI unit: SI bounds, ages 2–19 a and from 20 a.
    expect(strip(m.referenceRanges)).toEqual([
      { simin: 3.8, simax: 5.1, sex: 'all', ageMin: 2, ageMax: 19 },
      { simin: 3.5, simax: 5.3, sex: 'all', ageMin: 20 },
    ]);
    for (const [value, expected] of [
      ['3.4', 'low'],
      ['3.5', 'normal'],
      ['5.3', 'normal'],
      ['5.4', 'high'],
    ]) {
      const e = await cli([
        'measures',
        'evaluate',
        String(m.id),
        '--value',
        value,
        '--si',
        '--age',
        '30',
        '-o',
        'json',
      ]);
      expect([value, JSON.parse(e.stdout).interpretation]).toEqual([value, expected]);
    }
  });

  it('reads permittedUnit and rangeCategory, and names each element not read once with a count', async () => {
    const { s, dir, cli } = await cliOnServer({ events: false });
    const ucum = (code: string) => ({ value: 0, system: 'http://unitsofmeasure.org', code });
    const q = (v: number) => ({ ...ucum('mmol/L'), value: v });
    const od = {
      resourceType: 'ObservationDefinition',
      status: 'active',
      code: { coding: [{ system: 'http://loinc.org', code: '2823-3' }], text: 'Potassium' },
      permittedDataType: ['Quantity'],
      permittedUnit: [
        { system: 'http://unitsofmeasure.org', code: 'mmol/L' },
        { system: 'http://unitsofmeasure.org', code: 'meq/L' },
      ],
      qualifiedValue: [
        {
          rangeCategory: 'reference',
          gender: 'female',
          age: { low: { ...ucum('a'), value: 18 } },
          range: { low: q(3.5), high: q(5.1) },
          normalCodedValueSet: 'http://example.org/vs/normal',
        },
        {
          rangeCategory: 'reference',
          gender: 'male',
          age: { low: { ...ucum('a'), value: 18 } },
          range: { low: q(3.6), high: q(5.2) },
          normalCodedValueSet: 'http://example.org/vs/normal',
        },
        { rangeCategory: 'critical', range: { low: q(2.5), high: q(6.5) } },
      ],
    };
    await writeFile(join(dir, 'r5.json'), JSON.stringify(od));
    const r = await cli(['measures', 'import', 'r5.json', '--test', 'tst_k']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'r5.json record 1 (Potassium): permittedUnit: only the first unit (mmol/L) is kept of 2',
    );
    expect(r.stderr).toContain(
      'r5.json record 1 (Potassium): qualifiedValue.normalCodedValueSet: not read: a measure has no field for it, ' +
        'so it is left out (2 times)',
    );
    expect(r.stderr.match(/normalCodedValueSet/g)).toHaveLength(1);
    const [m] = (await s.call('GET', '/diagnostic-measures')).body as Rec[];
    expect(m).toMatchObject({ unit: 'mmol/L' });
    expect(strip(m.referenceRanges)).toEqual([
      { min: 3.5, max: 5.1, sex: 'female', ageMin: 18 },
      { min: 3.6, max: 5.2, sex: 'male', ageMin: 18 },
    ]);
    expect(m.panicRanges).toEqual([{ min: 2.5, max: 6.5, sex: 'all' }]);
    // An R5 interval limited to a population stops the import, named by its own path.
    od.qualifiedValue.push({ rangeCategory: 'reference', appliesTo: [{ text: 'pregnancy' }], range: {} } as never);
    await writeFile(join(dir, 'r5.json'), JSON.stringify(od));
    const limited = await cli(['measures', 'lint', 'r5.json', '--test', 'tst_k']);
    expect(limited.code).toBe(2);
    expect(limited.stderr).toContain('qualifiedValue[3].appliesTo: a range only for appliesTo "pregnancy"');
  });
});
