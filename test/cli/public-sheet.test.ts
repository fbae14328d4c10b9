// Covers: src/formats/csv/ test/fixtures/sheets/
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// A public lab sheet as it was published (test/fixtures/sheets/README.md: COVID Analytics' reference ranges,
// MIT, each row citing Mayo Clinic or NBME), through lint, import, evaluate and export. Expected answers are
// the sheet's own text: "3.4-9.6 x 10^9/L" under Reported Units 10^9/L is 3.4 × 10^9/L to 9.6 × 10^9/L, both
// ends normal; "1.2-3.0 mmol/L" keeps its 3.0; "Male = 135-175 g/L" and "Female = 120-160 g/L" on a cell's two
// lines are a range for each sex. The rows it writes in forms a range cannot hold as written (a unit column
// naming two units, Seconds against seconds) are refused, each by its line.

type Rec = Record<string, unknown>;
const FIXTURES = new URL('../fixtures/sheets/', import.meta.url).pathname;
const COLUMNS = ['Reported Units=unit', 'Abbreviation=', 'Source=', 'Source Link=', 'Notes=description'].flatMap(
  (c) => ['--column', c],
);
const IMPORT = ['measures', 'import', 'covid.csv', '--test', 'tst_covid', ...COLUMNS];

type Ends = readonly string[];
type Row = { name: string; unit: string; all?: Ends; male?: Ends; female?: Ends };
/** Each row as the sheet writes it: Lab Test, Reported Units, and each sex's two ends of its Reference Range. */
const ROWS: Row[] = [
  { name: 'White Blood Cell Count', unit: '10^9/L', all: ['3.4', '9.6'] },
  { name: 'Lymphocyte Count', unit: '10^9/L', all: ['0.95', '3.07'] },
  { name: 'Platelet Count', unit: '10^9/L', male: ['135', '317'], female: ['157', '371'] },
  { name: 'Neutrophil Count', unit: '10^9/L', all: ['1.56', '6.45'] },
  { name: 'Hemoglobin', unit: 'g/L', male: ['135', '175'], female: ['120', '160'] },
  { name: 'Hematocrit', unit: '%', male: ['41', '53'], female: ['36', '46'] },
  { name: 'Albumin', unit: 'g/L', all: ['35', '55'] },
  { name: 'Alanine Aminotransferase', unit: 'U/L', all: ['8', '20'] },
  { name: 'Aspartate Aminotransferase', unit: 'U/L', all: ['8', '20'] },
  { name: 'Total Bilirubin', unit: 'umol/L', all: ['2', '17'] },
  { name: 'Blood urea nitrogen', unit: 'mmol/L', all: ['1.2', '3.0'] },
  { name: 'Creatinine', unit: 'umol/L', all: ['53', '106'] },
  { name: 'Creatine Kinase', unit: 'U/L', male: ['25', '90'], female: ['10', '70'] },
  { name: 'C-Reactive Protein', unit: 'mg/L', all: ['0', '8'] },
  { name: 'Gamma-Glutamyl Transferase', unit: 'U/L', male: ['8', '61'], female: ['5', '36'] },
].sort((a, b) => a.name.localeCompare(b.name));

/** A row's ranges as [sex, min, max], in the order the cell writes them. */
const bands = (row: Row) =>
  (['all', 'male', 'female'] as const).flatMap((sex) => {
    const ends = row[sex];
    return ends ? [[sex, ends[0], ends[1]] as const] : [];
  });
const decimals = (text: string) => text.split('.')[1]?.length ?? 0;
/** One step in the last place the sheet wrote: 3.4 → 0.1, 0.95 → 0.01, 35 → 1. */
const step = (text: string) => 10 ** -decimals(text);
const byName = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));

async function sheet(file: string) {
  const s = await cliOnServer({ events: false });
  await copyFile(join(FIXTURES, file), join(s.dir, 'covid.csv'));
  return s;
}

describe("COVID Analytics' public reference range sheet", () => {
  it('imports each row with its Reference Range cell’s ranges, and evaluates on and around each end', async () => {
    const { s, cli } = await sheet('covid-reference-ranges.csv');
    const r = await cli(IMPORT);
    expect(r.code, r.stderr).toBe(0);
    const list = ((await s.call('GET', '/diagnostic-measures')).body as Rec[]).map((m) => [
      m.name,
      m.unit,
      (m.referenceRanges as Rec[]).map((x) => [x.sex, x.min, x.max]),
    ]);
    expect(list.sort(byName)).toEqual(
      ROWS.map((row) => [row.name, row.unit, bands(row).map(([sex, min, max]) => [sex, Number(min), Number(max)])]),
    );
    for (const row of ROWS) {
      for (const [sex, min, max] of bands(row)) {
        const at = (v: number) => v.toFixed(Math.max(decimals(min), decimals(max)));
        const cases: [string, string][] = [
          [at(Number(min) - step(min)), 'low'],
          [min, 'normal'],
          [max, 'normal'],
          [at(Number(max) + step(max)), 'high'],
        ];
        const who = sex === 'all' ? [] : ['--sex', sex];
        for (const [value, expected] of cases) {
          const e = await cli(['measures', 'evaluate', row.name, '--value', value, ...who, '-o', 'json']);
          expect(e.code, `${row.name} ${sex} ${value}: ${e.stderr}`).toBe(0);
          expect(JSON.parse(e.stdout).interpretation, `${row.name} ${sex} ${value}`).toBe(expected);
        }
      }
    }
    // 130 g/L of hemoglobin is below the men's 135 and within the women's 120-160.
    const hb = async (sex: string) =>
      JSON.parse(
        (await cli(['measures', 'evaluate', 'Hemoglobin', '--value', '130', '--sex', sex, '-o', 'json'])).stdout,
      );
    expect((await hb('male')).interpretation).toBe('low');
    expect((await hb('female')).interpretation).toBe('normal');
  });

  it('exports each end with the decimals the sheet wrote, and the export imports unchanged', async () => {
    const { dir, cli } = await sheet('covid-reference-ranges.csv');
    expect((await cli(IMPORT)).code).toBe(0);
    const out = await cli(['measures', 'export', '--format', 'csv', '--out', 'export.csv']);
    expect(out.code, out.stderr).toBe(0);
    const [head, ...lines] = (await readFile(join(dir, 'export.csv'), 'utf8')).trim().split(/\r?\n/);
    const header = head!.split(',');
    const rows = lines.map((l) => Object.fromEntries(l.split(',').map((c, i) => [header[i], c])));
    expect(rows.map((x) => [x.name, x.unit, x.sex, x.min, x.max]).sort(byName)).toEqual(
      ROWS.flatMap((row) => bands(row).map(([sex, min, max]) => [row.name, row.unit, sex, min, max])),
    );
    const again = await cli(['measures', 'import', 'export.csv', '--dry-run', '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ create: 0, update: 0, unchanged: ROWS.length });
  });

  it('refuses, by line, the rows whose cell a range cannot hold as written, and sends nothing', async () => {
    const { s, cli } = await sheet('covid-reference-ranges-unread.csv');
    const r = await cli(IMPORT);
    expect(r.code).toBe(2);
    for (const text of [
      'covid.csv:2:4 (Interleukin-6): referenceRange: "0-1.8 pg/mL" is in pg/mL, not the measure\'s unit ng/L = pg/mL',
      'covid.csv:3:4 (Procalcitonin): referenceRange: "0-0.15 ng/mL" is in ng/mL, not the measure\'s unit ng/mL = ug/L',
      'covid.csv:4:4 (D-Dimer): referenceRange: "0-.5 mg/L" is in mg/L, not the measure\'s unit mg/L = ug/mL',
      'covid.csv:5:4 (Prothrombin Time): referenceRange: "11-15 seconds" is in seconds, ' +
        "not the measure's unit Seconds",
    ])
      expect(r.stderr).toContain(text);
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });
});
