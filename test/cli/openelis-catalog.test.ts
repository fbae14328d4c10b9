// Covers: src/formats/csv/ test/fixtures/openelis/
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// OpenELIS's own test catalog sheet (test/fixtures/openelis/README.md: the Haiti LNSP catalog, MPL-2.0), its
// numeric rows as the sheet holds them, through lint, import, evaluate and export. Expected answers are the
// sheet's own text: NORMAL RANGE MIN and MAX (headers clinadmin knows) are the ends of the normal range (a
// result equal to either is normal; below MIN is low, above MAX high), UNITS the unit, "Test Name in English"
// the name. The lab admin maps the sheet's other headers with --column and leaves out what a measure has no
// field for (the French names, sample types, valid ranges, select lists); nothing of the sheet is edited.

type Rec = Record<string, unknown>;
const SHEET = new URL('../fixtures/openelis/haiti-lnsp-catalog.csv', import.meta.url).pathname;

/** The admin's --column maps, each header as the sheet writes it (two hold an =, one column has no header). */
const COLUMNS = [
  'item=',
  'Test name French (<=60 ch, OE)=',
  '=',
  'Test Name in English=name',
  'Lab Section (French)=',
  'Panel association (<=30ch OE)=',
  'ch count=',
  'Test Name Abbreviation (<= 16ch OE)=',
  '(Current) OE 2.3 test name (needed for OE update)=',
  'New tests vs old tests=',
  'SAMPLE TYPE (FRENCH)=',
  'SAMPLE TYPE (ENGLISH)=',
  'RESULT TYPE=',
  'VALID RANGE MIN=',
  'VALID RANGE MAX=',
  'REFERENCE RANGE=',
  'SELECT LIST OPTIONS=',
  'validation date=',
  'validated by=',
].flatMap((c) => ['--column', c]);
const IMPORT = ['measures', 'import', 'lnsp.csv', '--test', 'tst_lnsp', ...COLUMNS];

/** Each numeric row of the sheet: its English name, UNITS, NORMAL RANGE MIN and MAX as written. */
const ROWS = [
  { name: 'HIV Viral Load', unit: 'Copies/ml', min: 0, max: 299 },
  { name: 'CD4 Absolute Count', unit: '?l', min: 500, max: 1500 },
  { name: 'CD4 % Count', unit: '%', min: 30, max: 60 },
];

async function openelis() {
  const s = await cliOnServer({ events: false });
  await copyFile(SHEET, join(s.dir, 'lnsp.csv'));
  return s;
}

describe("OpenELIS's Haiti LNSP test catalog sheet", () => {
  it('lints with the headers mapped, naming the units that are not UCUM as warnings', async () => {
    const { cli } = await openelis();
    const bare = await cli(['measures', 'lint', 'lnsp.csv', '--test', 'tst_lnsp']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('lnsp.csv:1:3: unknown column ""');
    const r = await cli(['measures', 'lint', 'lnsp.csv', '--test', 'tst_lnsp', ...COLUMNS, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { checked: number; records: Rec[] };
    expect(report.checked).toBe(3);
    // The sheet's "?l" is its µl lost to a code page on export, and Copies/ml is not UCUM's {copies}/mL.
    expect(r.stderr).toContain('lnsp.csv:2:21 (HIV Viral Load): unit: "Copies/ml" is not valid UCUM');
    expect(r.stderr).toContain('lnsp.csv:3:21 (CD4 Absolute Count): unit: "?l" is not valid UCUM');
  });

  it('imports each row as a measure with the sheet’s normal range, and evaluates on and around each end', async () => {
    const { s, cli } = await openelis();
    const r = await cli(IMPORT);
    expect(r.code, r.stderr).toBe(0);
    const list = (await s.call('GET', '/diagnostic-measures')).body as Rec[];
    const held = list
      .map((m) => ({
        test: m.test,
        name: m.name,
        unit: m.unit,
        ranges: (m.referenceRanges as Rec[]).map(({ id: _id, ...x }) => x),
        panic: m.panicRanges ?? [],
      }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name)));
    expect(held).toEqual(
      [...ROWS]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((x) => ({
          test: 'tst_lnsp',
          name: x.name,
          unit: x.unit,
          ranges: [{ min: x.min, max: x.max, sex: 'all' }],
          panic: [],
        })),
    );
    for (const row of ROWS) {
      const cases: [number, string][] = [
        [row.min - 1, 'low'],
        [row.min, 'normal'],
        [(row.min + row.max) / 2, 'normal'],
        [row.max, 'normal'],
        [row.max + 1, 'high'],
      ];
      for (const [value, expected] of cases) {
        const e = await cli(['measures', 'evaluate', row.name, '--value', String(value), '-o', 'json']);
        expect(e.code, `${row.name} ${value}: ${e.stderr}`).toBe(0);
        expect(JSON.parse(e.stdout).interpretation, `${row.name} ${value}`).toBe(expected);
      }
    }
  });

  it('exports the names, units and ends as the sheet wrote them, and the export imports unchanged', async () => {
    const { dir, cli } = await openelis();
    expect((await cli(IMPORT)).code).toBe(0);
    const out = await cli(['measures', 'export', '--format', 'csv', '--out', 'export.csv']);
    expect(out.code, out.stderr).toBe(0);
    const lines = (await readFile(join(dir, 'export.csv'), 'utf8')).trim().split(/\r?\n/);
    const header = lines[0]!.split(',');
    const rows = lines.slice(1).map((l) => Object.fromEntries(l.split(',').map((c, i) => [header[i], c])));
    expect(
      rows.map((x) => [x.name, x.unit, x.range, x.min, x.max]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual(
      [...ROWS]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((x) => [x.name, x.unit, 'reference', String(x.min), String(x.max)]),
    );
    await writeFile(join(dir, 'again.csv'), await readFile(join(dir, 'export.csv')));
    const again = await cli(['measures', 'import', 'again.csv', '--dry-run', '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ create: 0, update: 0, unchanged: 3 });
    // And the sheet itself, imported again, changes nothing.
    const twice = await cli([...IMPORT, '--dry-run', '-o', 'json']);
    expect(JSON.parse(twice.stdout)).toMatchObject({ create: 0, update: 0, unchanged: 3 });
  });
});
