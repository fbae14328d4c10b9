// Covers: src/core/ages.ts src/formats/fhir/qualified-interval.ts src/formats/csv/cell-read.ts src/formats/csv/write.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// FHIR age Ranges from a hostile or careless file: R4 makes `extension` a list of Extension objects and says
// an extension may not change the meaning of the element it sits on (§2.5.0.1, only modifierExtension may);
// a file that breaks either is read for what its plain elements say, never a crash.

type Rec = Record<string, unknown>;
const UCUM = 'http://unitsofmeasure.org';
const AGE_YEARS = 'https://fhir.clinadmin.dev/StructureDefinition/age-years';

const setup = () => cliOnServer({ seed: false, events: false });

const definition = (age: Rec, more: Rec = {}) => ({
  resourceType: 'ObservationDefinition',
  code: { text: 'Bilirubin' },
  permittedDataType: ['Quantity'],
  quantitativeDetails: { customaryUnit: { coding: [{ system: UCUM, code: 'mg/dL' }] } },
  qualifiedInterval: [{ category: 'reference', range: { low: { value: 1 }, high: { value: 12 } }, age }],
  ...more,
});

describe('FHIR age Ranges from a hostile file', () => {
  it('reads 0–28 d where the age Quantity carries a crafted age-years of 50 years', async () => {
    const { cli, dir, s } = await setup();
    const high = { value: 28, unit: 'd', system: UCUM, code: 'd', extension: [{ url: AGE_YEARS, valueDecimal: 50 }] };
    await writeFile(join(dir, 'od.json'), JSON.stringify(definition({ low: { value: 0, code: 'd' }, high })));
    const r = await cli(['measures', 'import', 'od.json', '--test', 'tst_x']);
    expect(r.code, r.stderr).toBe(0);
    const [m] = (await s.call('GET', '/diagnostic-measures')).body as Rec[];
    // 28 d is 28/365.25 years (UCUM: a = 365.25 d), not the 50 the extension claims; as R4 reads a Range,
    // high is the first age past the band: its last completed day is the 27th.
    expect((m.referenceRanges as Rec[])[0].ageMax).toBe(28 / 365.25);
    const show = await cli(['measures', 'show', m.id as string, '-o', 'table']);
    expect(show.stdout).toContain('0–27 d');
  });

  it('reads extensions and identifiers that are no list of objects as none, instead of failing', async () => {
    const { cli, dir, s } = await setup();
    const age = { low: { value: 0, code: 'd', extension: 'x' }, high: { value: 28, code: 'd', extension: [null, 5] } };
    const od = definition(age, { identifier: [null, 'x'], extension: [null] });
    (od.qualifiedInterval[0] as Rec).extension = { url: 'x' };
    await writeFile(join(dir, 'od.json'), JSON.stringify(od));
    const r = await cli(['measures', 'import', 'od.json', '--test', 'tst_x']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('unexpected');
    const [m] = (await s.call('GET', '/diagnostic-measures')).body as Rec[];
    expect((m.referenceRanges as Rec[])[0].ageMax).toBeCloseTo(28 / 365.25, 12);
  });

  it('names an age value too large for a number (1e400 d) as such, not as a unit UCUM lacks', async () => {
    const { cli, dir } = await setup();
    const text = JSON.stringify(definition({ high: { value: 7, code: 'd' } })).replace('"value":7', '"value":1e400');
    await writeFile(join(dir, 'od.json'), text);
    const r = await cli(['measures', 'lint', 'od.json', '--test', 'tst_x']);
    // An age we cannot read stops the import (issue 61): the range would otherwise hold for every age.
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'qualifiedInterval[0].age.high: a range only for an age too large for a number (Infinity)',
    );
    expect(r.stderr).not.toContain("not one of UCUM's");
  });
});

describe('ages a number prints in exponent form', () => {
  it('exports an age of 1e-7 years (3 s) as CSV and reads the sheet back as the same catalog', async () => {
    const { cli, dir } = await setup();
    const catalog = [
      { test: 'tst_x', name: 'Tiny', type: 'numeric', unit: 'g/L', referenceRanges: [{ min: 1, ageMin: 1e-7 }] },
    ];
    await writeFile(join(dir, 'c.json'), JSON.stringify(catalog));
    expect((await cli(['measures', 'import', 'c.json'])).code).toBe(0);
    const csv = await cli(['measures', 'export', '--format', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    await writeFile(join(dir, 'back.csv'), csv.stdout);
    const again = await cli(['measures', 'import', 'back.csv', '--dry-run']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('dry run: 0 to create, 0 to update, 1 unchanged');
  });

  it('refuses an age past what a number holds (1e400d), naming the field, the value and the forms', async () => {
    const { cli, dir } = await setup();
    const bad = [{ test: 't', name: 'Bad', type: 'numeric', unit: 'g/L', referenceRanges: [{ ageMax: '1e400d' }] }];
    await writeFile(join(dir, 'bad.json'), JSON.stringify(bad));
    const r = await cli(['measures', 'import', 'bad.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('referenceRanges[0].ageMax: "1e400d" is not an age; write years (17, 2.5)');
  });
});

describe('an age of the wrong kind in a JSON catalog', () => {
  it('names the field, the value and the forms for true, null, -1 and 1e400', async () => {
    const { cli, dir } = await setup();
    const ranges = '[{"min":1,"ageMax":true},{"min":1,"ageMin":null},{"min":1,"ageMin":-1},{"min":1,"ageMax":1e400}]';
    const text = `[{"test":"t","name":"Bad","type":"numeric","unit":"g/L","referenceRanges":${ranges}}]`;
    await writeFile(join(dir, 'bad.json'), text);
    const r = await cli(['measures', 'import', 'bad.json']);
    expect(r.code).toBe(2);
    const forms =
      'is not an age; write years (17, 2.5) or a count with its unit: 36h, 28d, 2wk, 11mo, 17y ' +
      '(or 17a, 28 days, 11 months)';
    expect(r.stderr).toContain(`referenceRanges[0].ageMax: true ${forms}`);
    expect(r.stderr).toContain(`referenceRanges[1].ageMin: null ${forms}`);
    expect(r.stderr).toContain(`referenceRanges[2].ageMin: -1 ${forms}`);
    expect(r.stderr).toContain(`referenceRanges[3].ageMax: Infinity ${forms}`);
  });
});
