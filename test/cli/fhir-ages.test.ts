// Covers: src/formats/fhir/qualified-interval.ts src/formats/fhir/from-observation-definition.ts
// Covers: src/formats/fhir/ucum.ts
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findObservationInterval } from '@medplum/core';
import { describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// FHIR ages in UCUM units (a, mo, wk, d, h, min) and in the words people write (Medplum writes "years"), read
// as the lab notation reads them; an age unit that is none of these is an error at its element. Expected
// answers come from Medplum's own evaluation of its example (findObservationInterval in @medplum/core).

const FIXTURES = new URL('../fixtures/fhir/', import.meta.url);
const server = () => cliOnServer({ events: false });
type Rec = Record<string, unknown>;
type ObservationDefinition = Parameters<typeof findObservationInterval>[0];
type Patient = Parameters<typeof findObservationInterval>[1];

/** A patient Medplum counts as `years` completed years old (half a year past that birthday). */
function patient(gender: 'male' | 'female', years: number): Patient {
  const born = new Date();
  born.setUTCMonth(born.getUTCMonth() - 12 * years - 6);
  return { resourceType: 'Patient', gender, birthDate: born.toISOString().slice(0, 10) };
}

describe('FHIR ages as other systems write them', () => {
  it("reads Medplum's testosterone, ages in years, and evaluates as Medplum does within every band", async () => {
    const { dir, cli } = await server();
    const text = await readFile(new URL('medplum-testosterone.json', FIXTURES), 'utf8');
    await writeFile(join(dir, 't.json'), text);
    const lint = await cli(['measures', 'lint', 't.json', '--test', 'tst_t']);
    expect(lint.code, lint.stderr).toBe(0);
    expect(lint.stderr).not.toContain('age.');
    const od = JSON.parse(text) as ObservationDefinition;
    // Each Normal interval's band and its value limits: every value on and either side of a limit, at an age
    // inside the band (Medplum counts completed years, clinadmin exact ages: they agree inside a band).
    const cases: [gender: 'male' | 'female', age: number, values: number[]][] = [
      ['male', 5, [150]],
      ['male', 12, [150, 563, 563.1]],
      ['male', 17, [48.9, 49, 150, 769, 769.1]],
      ['male', 30, [248.9, 249, 836, 836.1]],
      ['male', 60, [192.9, 193, 740, 740.1]],
      ['female', 15, [30, 52, 52.1]],
      ['female', 30, [8.3, 8.4, 48.1, 48.2]],
      ['female', 70, [2.8, 2.9, 40.8, 40.9]],
    ];
    const words: Record<string, string> = { Normal: 'normal', Low: 'low', High: 'high' };
    for (const [gender, age, values] of cases)
      for (const value of values) {
        const medplum = findObservationInterval(od, patient(gender, age), value);
        const args = ['--value', String(value), '--sex', gender, '--age', `${age}.5`, '-o', 'json'];
        const r = await cli([
          'measures',
          'evaluate',
          '--file',
          't.json',
          '--name',
          'Testosterone',
          '--test',
          'tst_t',
          ...args,
        ]);
        expect(r.code, r.stderr).toBe(0);
        const ours = JSON.parse(r.stdout).interpretation;
        expect({ gender, age, value, ours }).toEqual({
          gender,
          age,
          value,
          ours: medplum ? words[medplum.condition as string] : 'no-range',
        });
      }
  });

  it('reads UCUM codes and words in any case as the lab notation does; another unit is an error', async () => {
    const { s, dir, cli } = await server();
    const band = (low: Rec, high: Rec) => ({
      category: 'reference',
      range: { low: { value: 1, unit: 'mg/dL' }, high: { value: 2, unit: 'mg/dL' } },
      age: { low, high },
    });
    const od = (intervals: Rec[]) => ({
      resourceType: 'ObservationDefinition',
      code: { text: 'Analyte' },
      permittedDataType: ['Quantity'],
      quantitativeDetails: { customaryUnit: { text: 'mg/dL' } },
      qualifiedInterval: intervals,
    });
    const HOUR = 1 / 8766;
    const cases: [Rec, Rec, number, number][] = [
      [{ value: 0, code: 'min' }, { value: 90, code: 'min' }, 0, 1.5 * HOUR],
      [{ value: 0, unit: 'Hours' }, { value: 25, unit: 'hours' }, 0, 25 * HOUR],
      [{ value: 1, unit: 'DAY' }, { value: 29, unit: 'days' }, 24 * HOUR, 29 * 24 * HOUR],
      [{ value: 2, unit: 'week' }, { value: 4, code: 'wk' }, 14 * 24 * HOUR, 28 * 24 * HOUR],
      [{ value: 1, unit: 'Month' }, { value: 12, unit: 'months' }, 1 / 12, 1],
      [{ value: 1, unit: 'yr' }, { value: 18, unit: 'Years' }, 1, 18],
      [{ value: 18, unit: 'year' }, { value: 121, code: 'a' }, 18, 121],
    ];
    for (const [low, high, ageMin, ageMax] of cases) {
      await writeFile(join(dir, 'od.json'), JSON.stringify(od([band(low, high)])));
      const r = await cli(['measures', 'lint', 'od.json', '--test', 'tst_x', '-o', 'json']);
      expect(r.code, r.stderr).toBe(0);
      expect((await cli(['measures', 'import', 'od.json', '--test', 'tst_x'])).code).toBe(0);
      const [m] = (await s.call('GET', '/diagnostic-measures')).body as Rec[];
      const [range] = m.referenceRanges as Rec[];
      expect([range.ageMin ?? 0, range.ageMax]).toEqual([expect.closeTo(ageMin, 12), expect.closeTo(ageMax, 12)]);
    }
    await writeFile(
      join(dir, 'od.json'),
      JSON.stringify(od([band({ value: 1, unit: 'decades' }, { value: 2, unit: 'a' })])),
    );
    await s.call(
      'DELETE',
      `/diagnostic-measures/${((await s.call('GET', '/diagnostic-measures')).body as Rec[])[0].id}`,
    );
    const bad = await cli(['measures', 'import', 'od.json', '--test', 'tst_x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'qualifiedInterval[0].age.low: a range only for an age in "decades", not an age unit ' +
        '(UCUM a, mo, wk, d, h, min, or year, month, week, day, hour)',
    );
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });
});
