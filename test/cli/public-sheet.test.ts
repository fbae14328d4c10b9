import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// A public lab sheet as it was published (test/fixtures/sheets/README.md: COVID Analytics' reference ranges,
// MIT, each row citing Mayo Clinic or NBME), through lint, import, evaluate and export. Expected answers are
// the sheet's own text: "3.4-9.6 x 10^9/L" under Reported Units 10^9/L is 3.4 × 10^9/L to 9.6 × 10^9/L, both
// ends normal; "1.2-3.0 mmol/L" keeps its 3.0. The rows it writes in forms a range cannot hold as written (two
// sexes in one cell, a unit column naming two units, Seconds against seconds) are refused, each by its line.

type Rec = Record<string, unknown>;
const FIXTURES = new URL('../fixtures/sheets/', import.meta.url).pathname;
const COLUMNS = ['Reported Units=unit', 'Abbreviation=', 'Source=', 'Source Link=', 'Notes=description'].flatMap(
  (c) => ['--column', c],
);
const IMPORT = ['measures', 'import', 'covid.csv', '--test', 'tst_covid', ...COLUMNS];

/** Each row as the sheet writes it: Lab Test, Reported Units, and the Reference Range's two ends as written. */
const ROWS = [
  { name: 'White Blood Cell Count', unit: '10^9/L', min: '3.4', max: '9.6' },
  { name: 'Lymphocyte Count', unit: '10^9/L', min: '0.95', max: '3.07' },
  { name: 'Neutrophil Count', unit: '10^9/L', min: '1.56', max: '6.45' },
  { name: 'Albumin', unit: 'g/L', min: '35', max: '55' },
  { name: 'Alanine Aminotransferase', unit: 'U/L', min: '8', max: '20' },
  { name: 'Blood urea nitrogen', unit: 'mmol/L', min: '1.2', max: '3.0' },
  { name: 'Creatinine', unit: 'umol/L', min: '53', max: '106' },
  { name: 'C-Reactive Protein', unit: 'mg/L', min: '0', max: '8' },
].sort((a, b) => a.name.localeCompare(b.name));

/** One step in the last place the sheet wrote: 3.4 → 0.1, 0.95 → 0.01, 35 → 1. */
const step = (text: string) => 10 ** -(text.split('.')[1]?.length ?? 0);
const decimals = (text: string) => text.split('.')[1]?.length ?? 0;

async function sheet(file: string) {
  const s = await cliOnServer({ events: false });
  await copyFile(join(FIXTURES, file), join(s.dir, 'covid.csv'));
  return s;
}

describe("COVID Analytics' public reference range sheet", () => {
  it('imports each row with its Reference Range cell’s range, and evaluates on and around each end', async () => {
    const { s, cli } = await sheet('covid-reference-ranges.csv');
    const r = await cli(IMPORT);
    expect(r.code, r.stderr).toBe(0);
    const list = ((await s.call('GET', '/diagnostic-measures')).body as Rec[]).sort((a, b) =>
      String(a.name).localeCompare(String(b.name)),
    );
    expect(list.map((m) => [m.name, m.unit, (m.referenceRanges as Rec[]).map((x) => [x.min, x.max, x.sex])])).toEqual(
      ROWS.map((x) => [x.name, x.unit, [[Number(x.min), Number(x.max), 'all']]]),
    );
    for (const row of ROWS) {
      const [min, max, places] = [Number(row.min), Number(row.max), Math.max(decimals(row.min), decimals(row.max))];
      const at = (v: number) => v.toFixed(places);
      const cases: [string, string][] = [
        [at(min - step(row.min)), 'low'],
        [row.min, 'normal'],
        [row.max, 'normal'],
        [at(max + step(row.max)), 'high'],
      ];
      for (const [value, expected] of cases) {
        const e = await cli(['measures', 'evaluate', row.name, '--value', value, '-o', 'json']);
        expect(e.code, `${row.name} ${value}: ${e.stderr}`).toBe(0);
        expect(JSON.parse(e.stdout).interpretation, `${row.name} ${value}`).toBe(expected);
      }
    }
  });

  it('exports each end with the decimals the sheet wrote, and the export imports unchanged', async () => {
    const { dir, cli } = await sheet('covid-reference-ranges.csv');
    expect((await cli(IMPORT)).code).toBe(0);
    const out = await cli(['measures', 'export', '--format', 'csv', '--out', 'export.csv']);
    expect(out.code, out.stderr).toBe(0);
    const [head, ...lines] = (await readFile(join(dir, 'export.csv'), 'utf8')).trim().split(/\r?\n/);
    const header = head!.split(',');
    const rows = lines.map((l) => Object.fromEntries(l.split(',').map((c, i) => [header[i], c])));
    expect(
      rows.map((x) => [x.name, x.unit, x.min, x.max]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual(ROWS.map((x) => [x.name, x.unit, x.min, x.max]));
    const again = await cli(['measures', 'import', 'export.csv', '--dry-run', '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ create: 0, update: 0, unchanged: ROWS.length });
  });

  it('refuses, by line, the rows whose cell a range cannot hold as written, and sends nothing', async () => {
    const { s, cli } = await sheet('covid-reference-ranges-unread.csv');
    const r = await cli(IMPORT);
    expect(r.code).toBe(2);
    for (const text of [
      'covid.csv:2:4 (Platelet Count): referenceRange: "Male = 135-317 x 10^9/L Female = 157-371" is not a range',
      'covid.csv:4:4 (Hemoglobin): referenceRange: "Male = 135-175 g/L Female = 120-160 g/L" is not a range',
      'covid.csv:6:4 (Creatine Kinase): referenceRange: "Male = 25-90 U/L, Female = 10-70 U/L" is not a range',
      'covid.csv:8:4 (Interleukin-6): referenceRange: "0-1.8 pg/mL" is in pg/mL, not the measure\'s unit ng/L = pg/mL',
      'covid.csv:9:4 (D-Dimer): referenceRange: "0-.5 mg/L" is in mg/L, not the measure\'s unit mg/L = ug/mL',
      'covid.csv:10:4 (Prothrombin Time): referenceRange: "11-15 seconds" is in seconds, ' +
        "not the measure's unit Seconds",
    ])
      expect(r.stderr).toContain(text);
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });
});
