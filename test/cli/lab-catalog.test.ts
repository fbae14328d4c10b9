// Covers: src/core/units.ts src/core/lint.ts src/core/interpret.ts src/formats/catalog.ts src/formats/csv/
// Covers: src/formats/fhir/observation-definition.ts src/formats/fhir/from-observation-definition.ts
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShipped } from '../helpers/run-shipped.js';
import { cliEnv, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

// One realistic catalog through the whole path, as a lab administrator takes it: the CLI as it ships against
// the reference server. test/fixtures/lab-catalog/catalog.csv is the lab's sheet as Excel saves it (BOM, CRLF),
// in its own words: LOINC, Units, Range type, Age from/to, Ref low/high, Critical low/high; normal, critical,
// All, M, F; 28 days, 24 h; <120, >5.0; bounds written 8.0, 0.70, 133. catalog.json is the same catalog in the
// fields' own names, its precision in *Precision fields and its ages as unit strings ("28d"). Expected answers
// come from outside our code:
// - LOINC's check digit (Mod 10, https://loinc.org/kb/users-guide/calculating-mod-10-check-digits/);
// - the lab's completed-unit notation and the API's exact ages (`clinadmin help ranges`): a band written
//   `0–24 h` is every age before hour 25, [0, 25 h); `25–48 h` starts at hour 25; ages are UCUM's
//   (a = 365.25 d, mo = a/12, d = 24 h: https://ucum.org/ucum §31–32), so 72 h is 3 d and 12 mo is 1 y;
// - FHIR R4: a Range's ends are exact values (datatypes.html#Range), a decimal's trailing zeros are part of
//   its value (datatypes.html#decimal), a `critical` interval holds the limits outside which a result is
//   critical, and an extension may not change what an element means (extensibility.html), so a file with
//   every extension dropped, as servers that do not know ours do, means the same bands and limits.

type Rec = Record<string, unknown>;
const FIXTURES = new URL('../fixtures/lab-catalog/', import.meta.url).pathname;
const RAW = JSON as unknown as { rawJSON: (text: string) => unknown; isRawJSON: (v: unknown) => boolean };
/** The catalog's tests (panels), and how many measures each holds. */
const PANELS: Record<string, number> = { tst_lytes: 6, tst_cbc: 1, tst_neo: 2, tst_thyroid: 1 };
const TESTS = Object.keys(PANELS);

/** The reference server on port 0 and the built CLI pointed at it from a folder holding the lab's two files. */
async function lab() {
  const s = await testServer({ seed: false, events: false });
  const dir = await tempDir();
  for (const f of ['catalog.csv', 'catalog.json']) await copyFile(join(FIXTURES, f), join(dir, f));
  const env = cliEnv(s.url, dir);
  const cli = async (args: string[], code = 0) => {
    const r = await runShipped(args, { env, cwd: dir });
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(code);
    return r;
  };
  return { s, dir, cli };
}
type Lab = Awaited<ReturnType<typeof lab>>;

/** `list -o json`, without what the service sets on a record (its id and times), sorted by test and name. */
async function listed(l: Lab, keepRangeIds = true): Promise<Rec[]> {
  const all = JSON.parse((await l.cli(['measures', 'list', '-o', 'json'])).stdout) as Rec[];
  const range = ({ id, ...r }: Rec) => (keepRangeIds && id !== undefined ? { id, ...r } : r);
  return all
    .map(
      ({ id: _i, createdAt: _c, createdBy: _b, updatedAt: _u, ...m }): Rec => ({
        ...m,
        ...(m.referenceRanges ? { referenceRanges: (m.referenceRanges as Rec[]).map(range) } : {}),
        ...(m.panicRanges ? { panicRanges: (m.panicRanges as Rec[]).map(range) } : {}),
      }),
    )
    .sort((a, b) => `${String(a.test)}/${String(a.name)}`.localeCompare(`${String(b.test)}/${String(b.name)}`));
}

/** A FHIR export parsed keeping each decimal's text (8.0 stays 8.0), as a FHIR server keeps it. */
const parseFhir = (text: string) =>
  JSON.parse(text, (_k, v, context?: { source?: string }) =>
    typeof v === 'number' ? RAW.rawJSON(context!.source!) : v,
  ) as Rec;

/** Every extension and modifierExtension removed, at every depth, as a FHIR server dropping unknown ones does. */
function stripped(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripped);
  if (RAW.isRawJSON(v) || v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => k !== 'extension' && k !== 'modifierExtension')
      .map(([k, x]) => [k, stripped(x)]),
  );
}

/** The import's last line: what a dry run would do. */
const nothingToDo = (n: number) => `dry run: 0 to create, 0 to update, ${n} unchanged, 0 in error; nothing was sent`;

/**
 * The sheet, row by row, as the one display rule of `help ranges` writes it back: each end of a band in the
 * largest of h, d, mo, y it is whole in, the upper end the last completed unit; each bound at the decimals
 * the lab wrote. [sex, band ('' for all ages), reference range, critical limits from the same row].
 * Written by hand from catalog.csv: `0–23 hours` is [0, 24 h) = [0, 1 d), which that rule writes `0 d`;
 * `29 days`–`120` is [29 d, 121 y), `29 d–120 y`; `8 days`–`11 months` is [8 d, 1 y), `8 d–11 mo`.
 */
type Band = [sex: string, band: string, reference: string, critical?: string];
const CATALOG: Record<string, Band[]> = {
  Sodium: [
    ['all', '0–28 d', '133–146 mmol/L', '< 120 or > 160 mmol/L'],
    ['all', '29 d–120 y', '135–145 mmol/L', '< 120 or > 160 mmol/L'],
  ],
  Potassium: [
    ['all', '0–28 d', '3.7–5.9 mmol/L', '< 2.5 or > 7.0 mmol/L'],
    ['all', '29 d–17 y', '3.4–4.7 mmol/L', '< 2.5 or > 6.5 mmol/L'],
    ['all', '18–120 y', '3.5–5.1 mmol/L', '< 2.5 or > 6.5 mmol/L'],
  ],
  Chloride: [['all', '', '98–107 mmol/L', '< 80 or > 120 mmol/L']],
  Calcium: [['all', '', '8.6–10.3 mg/dL', '< 6.0 or > 13.0 mg/dL']],
  Magnesium: [['all', '', '1.7–2.2 mg/dL', '< 1.0 or > 5.0 mg/dL']],
  Glucose: [
    ['all', '0–28 d', '50–90 mg/dL', '< 40 mg/dL'],
    ['all', '29 d–120 y', '70–99 mg/dL', '< 40 or > 500 mg/dL'],
  ],
  Hemoglobin: [
    ['all', '0–7 d', '14.5–22.5 g/dL'],
    ['all', '8 d–11 mo', '9.0–14.0 g/dL'],
    ['all', '1–17 y', '11.0–14.5 g/dL'],
    ['male', '18–120 y', '13.5–17.5 g/dL', '< 7.0 or > 20.0 g/dL'],
    ['female', '18–120 y', '12.0–15.5 g/dL', '< 7.0 or > 20.0 g/dL'],
  ],
  'Bilirubin, total': [
    ['all', '0–24 h', '1.4–8.7 mg/dL', '> 12.0 mg/dL'],
    ['all', '25–48 h', '3.4–11.5 mg/dL', '> 15.0 mg/dL'],
    ['all', '49–72 h', '1.5–12.0 mg/dL', '> 18.0 mg/dL'],
    ['all', '73 h–7 d', '1.2–13.5 mg/dL', '> 20.0 mg/dL'],
    ['all', '8–28 d', '0.5–10.0 mg/dL', '> 20.0 mg/dL'],
    ['all', '29 d–120 y', '0.3–1.2 mg/dL'],
  ],
  'Bilirubin, transcutaneous': [
    ['all', '0 d', '0.0–6.0 mg/dL', '> 8.0 mg/dL'],
    ['all', '1–2 d', '0.0–11.0 mg/dL', '> 13.0 mg/dL'],
    ['all', '3 d–6 mo', '0.0–13.0 mg/dL', '> 15.0 mg/dL'],
  ],
  TSH: [
    ['all', '0–6 d', '0.70–15.20 m[IU]/L'],
    ['all', '7 d–11 mo', '0.72–11.0 m[IU]/L'],
    ['all', '1–17 y', '0.60–4.84 m[IU]/L'],
    ['all', '18–120 y', '0.45–4.50 m[IU]/L'],
  ],
};

/** show's two range tables, each row as [sex, age, conventional range]. */
async function shownRanges(l: Lab, name: string) {
  const lines = (await l.cli(['measures', 'show', name, '-o', 'table'])).stdout.split('\n');
  const table = (title: string) => {
    const start = lines.findIndex((x) => x.startsWith(title));
    if (start === -1) return [];
    const end = lines.indexOf('', start);
    return lines.slice(start + 2, end).map((row) =>
      row
        .trim()
        .split(/\s{2,}/)
        .slice(0, 3),
    );
  };
  return { reference: table('Reference ranges'), panic: table('Panic ranges') };
}

/** An age as typed (`24.5h`, `28d`, `11mo`, `17.99`) in years, by UCUM: h = a/8766, d = a/365.25, mo = a/12. */
const PER_YEAR: Record<string, number> = { '': 1, a: 1, mo: 12, wk: 365.25 / 7, d: 365.25, h: 8766 };
function yearsOf(age: string): number {
  const [, n, unit] = /^([0-9.]+)(h|d|wk|mo)?$/.exec(age)!;
  return Number(n) / PER_YEAR[unit ?? ''];
}
/** A FHIR Quantity of age in years, by its UCUM code. */
const ucumYears = (q: Rec) => Number(JSON.stringify(q.value)) / PER_YEAR[String(q.code)];

/**
 * Ages on and between every boundary of every banded measure, as a clinician types them, and the band of
 * CATALOG each lies in by the convention of `help ranges`: a band holds its first age up to, not including,
 * the first age past it, so the last completed unit and all short of the next are in it (24 h and 24.5 h in
 * 0–24 h; 7.9 d in 73 h–7 d) and the next band begins at its own first age (25 h; 8 d). Ages in another unit
 * meet the same boundaries (UCUM: 72 h is 3 d, 12 mo is 1 y, 365 d is short of a year of 365.25 d).
 * [age, band ('' for a measure without ages; null where no band holds it), sex (female unless given)].
 */
const PROBES: Record<string, [age: string, band: string | null, sex?: 'male' | 'female'][]> = {
  Sodium: [
    ['0', '0–28 d'],
    ['28d', '0–28 d'],
    ['4wk', '0–28 d'],
    ['28.5d', '0–28 d'],
    ['29d', '29 d–120 y'],
    ['1mo', '29 d–120 y'],
    ['120', '29 d–120 y'],
    ['120.9', '29 d–120 y'],
    ['121', null],
  ],
  Potassium: [
    ['0', '0–28 d'],
    ['28d', '0–28 d'],
    ['28.9d', '0–28 d'],
    ['29d', '29 d–17 y'],
    ['17', '29 d–17 y'],
    ['17.5', '29 d–17 y'],
    ['18', '18–120 y'],
    ['120.5', '18–120 y'],
    ['121', null],
  ],
  Chloride: [
    ['0', ''],
    ['36h', ''],
    ['130', ''],
  ],
  Calcium: [['1d', '']],
  Magnesium: [['40', '']],
  Glucose: [
    ['0', '0–28 d'],
    ['28.5d', '0–28 d'],
    ['29d', '29 d–120 y'],
    ['120.5', '29 d–120 y'],
    ['121', null],
  ],
  Hemoglobin: [
    ['0', '0–7 d'],
    ['7d', '0–7 d'],
    ['7.5d', '0–7 d'],
    ['8d', '8 d–11 mo'],
    ['11mo', '8 d–11 mo'],
    ['11.9mo', '8 d–11 mo'],
    ['365d', '8 d–11 mo'],
    ['12mo', '1–17 y'],
    ['1', '1–17 y'],
    ['17', '1–17 y'],
    ['17.99', '1–17 y'],
    ['18', '18–120 y', 'male'],
    ['18', '18–120 y', 'female'],
    ['120.5', '18–120 y', 'male'],
    ['120.5', '18–120 y', 'female'],
    ['121', null, 'male'],
  ],
  'Bilirubin, total': [
    ['0', '0–24 h'],
    ['24h', '0–24 h'],
    ['1d', '0–24 h'],
    ['24.5h', '0–24 h'],
    ['25h', '25–48 h'],
    ['48h', '25–48 h'],
    ['2d', '25–48 h'],
    ['48.5h', '25–48 h'],
    ['49h', '49–72 h'],
    ['72h', '49–72 h'],
    ['3d', '49–72 h'],
    ['72.5h', '49–72 h'],
    ['73h', '73 h–7 d'],
    ['4d', '73 h–7 d'],
    ['7d', '73 h–7 d'],
    ['1wk', '73 h–7 d'],
    ['168h', '73 h–7 d'],
    ['191h', '73 h–7 d'],
    ['7.9d', '73 h–7 d'],
    ['192h', '8–28 d'],
    ['8d', '8–28 d'],
    ['28d', '8–28 d'],
    ['28.5d', '8–28 d'],
    ['29d', '29 d–120 y'],
    ['120', '29 d–120 y'],
    ['120.5', '29 d–120 y'],
    ['121', null],
  ],
  'Bilirubin, transcutaneous': [
    ['0', '0 d'],
    ['23h', '0 d'],
    ['23.5h', '0 d'],
    ['24h', '1–2 d'],
    ['1d', '1–2 d'],
    ['2d', '1–2 d'],
    ['71h', '1–2 d'],
    ['71.9h', '1–2 d'],
    ['72h', '3 d–6 mo'],
    ['3d', '3 d–6 mo'],
    ['6mo', '3 d–6 mo'],
    ['6.9mo', '3 d–6 mo'],
    ['7mo', null],
    ['1', null],
  ],
  TSH: [
    ['0', '0–6 d'],
    ['6d', '0–6 d'],
    ['6.5d', '0–6 d'],
    ['7d', '7 d–11 mo'],
    ['1wk', '7 d–11 mo'],
    ['11mo', '7 d–11 mo'],
    ['11.5mo', '7 d–11 mo'],
    ['365d', '7 d–11 mo'],
    ['366d', '1–17 y'],
    ['12mo', '1–17 y'],
    ['1', '1–17 y'],
    ['17', '1–17 y'],
    ['17.5', '1–17 y'],
    ['18', '18–120 y'],
    ['120', '18–120 y'],
    ['120.5', '18–120 y'],
    ['121', null],
  ],
};

describe("a lab's catalog through lint, import, export, re-import and evaluate", () => {
  it('uses real LOINC codes: every check digit is what Mod 10 gives', async () => {
    // LOINC's Mod 10, by hand: the digits at odd places from the right (1st, 3rd, ...) read as a number and
    // doubled, the digits at even places written before it, all those digits summed, the check digit what
    // brings the sum to the next multiple of 10.
    //   2951-2 Sodium         odd 1,9 → 19×2 = 38; even 52;   5+2+3+8 = 18 → 2
    //   2823-3 Potassium      odd 3,8 → 38×2 = 76; even 22;   2+2+7+6 = 17 → 3
    //   2075-0 Chloride       odd 5,0 → 50×2 = 100; even 72;  7+2+1+0+0 = 10 → 0
    //   17861-6 Calcium       odd 1,8,1 → 181×2 = 362; even 67;  6+7+3+6+2 = 24 → 6
    //   19123-9 Magnesium     odd 3,1,1 → 311×2 = 622; even 29;  2+9+6+2+2 = 21 → 9
    //   2345-7 Glucose        odd 5,3 → 53×2 = 106; even 42;  4+2+1+0+6 = 13 → 7
    //   718-7 Hemoglobin      odd 8,7 → 87×2 = 174; even 1;   1+1+7+4 = 13 → 7
    //   1975-2 Bilirubin.total [Mass/volume] in Serum or Plasma   odd 5,9 → 118; even 71; 7+1+1+1+8 = 18 → 2
    //   58941-6 Bilirubin [Mass/volume] in Skin (transcutaneous)  odd 1,9,5 → 390; even 48; 4+8+3+9+0 = 24 → 6
    //   3016-3 TSH            odd 6,0 → 60×2 = 120; even 13;  1+3+1+2+0 = 7 → 3
    const HAND: Record<string, string> = {
      Sodium: '2951-2',
      Potassium: '2823-3',
      Chloride: '2075-0',
      Calcium: '17861-6',
      Magnesium: '19123-9',
      Glucose: '2345-7',
      Hemoglobin: '718-7',
      'Bilirubin, total': '1975-2',
      'Bilirubin, transcutaneous': '58941-6',
      TSH: '3016-3',
    };
    const mod10 = (digits: string) => {
      const fromRight = [...digits].reverse();
      const odd = fromRight.filter((_, i) => i % 2 === 0).join('');
      const even = fromRight.filter((_, i) => i % 2 === 1).join('');
      const sum = [...`${even}${Number(odd) * 2}`].reduce((s, d) => s + Number(d), 0);
      return (10 - (sum % 10)) % 10;
    };
    for (const code of Object.values(HAND)) {
      const [digits, check] = code.split('-');
      expect(mod10(digits), code).toBe(Number(check));
    }
    const json = JSON.parse(await readFile(join(FIXTURES, 'catalog.json'), 'utf8')) as Rec[];
    expect(Object.fromEntries(json.map((m) => [m.name, m.hl7IdentifierCod]))).toEqual(HAND);
    const sheet = await readFile(join(FIXTURES, 'catalog.csv'), 'utf8');
    for (const [name, code] of Object.entries(HAND))
      expect(sheet, name).toContain(`${name.includes(',') ? `"${name}"` : name},${code},LN,`);
  });

  it('lints clean, and the sheet and the JSON catalog import to the very same records', async () => {
    const sheet = await lab();
    for (const file of ['catalog.csv', 'catalog.json']) {
      const linted = await sheet.cli(['measures', 'lint', file, '--strict', '-o', 'json']);
      expect(JSON.parse(linted.stdout), file).toMatchObject({ checked: 10, clean: 10, withWarnings: 0 });
      expect(linted.stderr, file).toBe('');
    }
    const imported = await sheet.cli(['measures', 'import', 'catalog.csv', '-o', 'json']);
    expect(JSON.parse(imported.stdout)).toMatchObject({ created: 10, updated: 0, failed: 0 });
    const json = await lab();
    await json.cli(['measures', 'import', 'catalog.json']);
    // Range ids are the server's own; all the rest is the same.
    expect(await listed(sheet, false)).toEqual(await listed(json, false));
    // Read again, each file is what the server holds: nothing to do.
    for (const file of ['catalog.csv', 'catalog.json'])
      expect((await sheet.cli(['measures', 'import', file, '--dry-run'])).stdout, file).toContain(nothingToDo(10));
  });

  it('keeps what the lab wrote: its decimals and bands, as show and each export write them', async () => {
    const l = await lab();
    await l.cli(['measures', 'import', 'catalog.csv']);
    for (const [name, bands] of Object.entries(CATALOG)) {
      const shown = await shownRanges(l, name.toLowerCase());
      expect(shown.reference, name).toEqual(bands.map(([sex, band, reference]) => [sex, band || 'all', reference]));
      const critical = bands.filter((b) => b[3] !== undefined);
      expect(shown.panic, name).toEqual(critical.map(([sex, band, , limits]) => [sex, band || 'all', limits]));
    }

    // JSON writes precision in its fields and ages as unit strings; CSV and FHIR write the decimals themselves.
    await l.cli(['measures', 'export', '--format', 'json', '--out', 'export.json']);
    const json = JSON.parse(await readFile(join(l.dir, 'export.json'), 'utf8')) as Rec[];
    const tcbJson = json.find((m) => m.name === 'Bilirubin, transcutaneous')!;
    expect(tcbJson.referenceRanges).toEqual([
      expect.objectContaining({ min: 0, minPrecision: 1, max: 6, maxPrecision: 1, ageMin: '0', ageMax: '0d' }),
      expect.objectContaining({ min: 0, max: 11, ageMin: '1d', ageMax: '2d' }),
      expect.objectContaining({ min: 0, max: 13, ageMin: '3d', ageMax: '6mo' }),
    ]);
    const biliJson = json.find((m) => m.name === 'Bilirubin, total')!.referenceRanges as Rec[];
    expect(biliJson.map((r) => `${r.ageMin}–${r.ageMax}`)).toEqual([
      '0–24h',
      '25h–48h',
      '49h–72h',
      '73h–7d',
      '8d–28d',
      '29d–120y',
    ]);
    await l.cli(['measures', 'export', '--format', 'csv', '--out', 'export.csv']);
    const csv = await readFile(join(l.dir, 'export.csv'), 'utf8');
    expect(csv).toContain('tst_thyroid,TSH,numeric,m[IU]/L,,,,,,3016-3,LN,,,,,,reference,all,0,6d,0.70,15.20,2,2');
    expect(csv).toContain(',58941-6,LN,,,,,,panic,all,0,0d,,8.0,,1,');
    const fhir = (await l.cli(['measures', 'export', '--format', 'fhir'])).stdout;
    expect(fhir).toContain('"value": 15.20');
    expect(fhir).toContain('"value": 8.0');
  });

  it('exports JSON, CSV and FHIR, and re-imports each, FHIR with every extension removed, with 0 changes', async () => {
    const l = await lab();
    await l.cli(['measures', 'import', 'catalog.csv']);
    const before = await listed(l);
    await l.cli(['measures', 'export', '--format', 'json', '--out', 'export.json']);
    await l.cli(['measures', 'export', '--format', 'csv', '--out', 'export.csv']);
    await l.cli(['measures', 'export', '--format', 'fhir', '--out', 'export.fhir.json']);
    for (const file of ['export.json', 'export.csv', 'export.fhir.json']) {
      const plan = await l.cli(['measures', 'import', file, '--dry-run']);
      expect(plan.stdout, file).toContain(nothingToDo(10));
      expect(plan.stdout, file).not.toContain('→');
    }
    // Without extensions a resource no longer says its test: each test's measures go out and back with --test.
    for (const test of TESTS) {
      const out = await l.cli(['measures', 'export', '--test', test, '--format', 'fhir']);
      const bare = JSON.stringify(stripped(parseFhir(out.stdout)), null, 2);
      expect(bare).not.toContain('extension');
      await writeFile(join(l.dir, `${test}.bare.json`), bare);
      const plan = await l.cli(['measures', 'import', `${test}.bare.json`, '--test', test, '--dry-run']);
      expect(plan.stdout, test).toContain(nothingToDo(PANELS[test]));
      expect(plan.stdout, test).not.toContain('→');
    }
    expect(await readFile(join(l.dir, 'tst_neo.bare.json'), 'utf8')).toContain('"value": 8.0');
    // Nothing was sent: the server holds what the sheet said, and shows it with its decimals.
    expect(await listed(l)).toEqual(before);
    const tcb = await l.cli(['measures', 'show', 'Bilirubin, transcutaneous', '-o', 'table']);
    expect(tcb.stdout).toContain('> 8.0 mg/dL');
  });

  it('imports each export into a fresh server to the same records as the first', async () => {
    const first = await lab();
    await first.cli(['measures', 'import', 'catalog.csv']);
    const expected = await listed(first);
    const files: Record<string, string> = {};
    for (const [format, file] of [
      ['json', 'export.json'],
      ['csv', 'export.csv'],
      ['fhir', 'export.fhir.json'],
    ]) {
      await first.cli(['measures', 'export', '--format', format, '--out', file]);
      files[file] = await readFile(join(first.dir, file), 'utf8');
    }
    for (const test of TESTS) {
      const out = await first.cli(['measures', 'export', '--test', test, '--format', 'fhir']);
      files[`${test}.bare.json`] = JSON.stringify(stripped(parseFhir(out.stdout)), null, 2);
    }
    for (const group of [['export.json'], ['export.csv'], ['export.fhir.json'], TESTS.map((t) => `${t}.bare.json`)]) {
      const fresh = await lab();
      for (const file of group) {
        await writeFile(join(fresh.dir, file), files[file]);
        const test = file.endsWith('.bare.json') ? ['--test', file.split('.')[0]] : [];
        await fresh.cli(['measures', 'import', file, ...test]);
      }
      expect(await listed(fresh), group.join(' ')).toEqual(expected);
    }
  });

  it('evaluates at ages on and between every boundary to the band the lab wrote, as an R4 reader does', async () => {
    const l = await lab();
    await l.cli(['measures', 'import', 'catalog.csv']);
    const bare = stripped(parseFhir((await l.cli(['measures', 'export', '--format', 'fhir'])).stdout)) as Rec;
    const resources = (bare.entry as { resource: Rec }[]).map((e) => e.resource);
    /** evaluate's answer (from the server, or from `from`: a catalog file) is the band of CATALOG, or none. */
    const picks = async (name: string, age: string, sex: string, row: Band | undefined, from?: string) => {
      const what = `${name} at ${age} (${sex})${from ? ` in ${from}` : ''}`;
      const measure = from ? ['--file', from, '--name', name] : [name];
      const args = ['measures', 'evaluate', ...measure, '--value', '1', '--age', age, '--sex', sex, '-o', 'table'];
      const lines = (await l.cli(args)).stdout.split('\n');
      const said = (label: string) =>
        lines.filter((x) => x.trimStart().startsWith(label)).map((x) => x.slice(x.indexOf(':') + 1).trim());
      const of = row && row[1] !== '' ? ` (${row[0] === 'all' ? row[1] : `${row[0]}, ${row[1]}`})` : '';
      expect(said('reference range:'), what).toEqual(row ? [`${row[2]}${of}`] : []);
      expect(said('panic range:'), what).toEqual(row?.[3] ? [`critical ${row[3]}${of}`] : []);
      if (!row) expect(lines[0], what).toMatch(/^no-range /);
    };
    let probed = 0;
    for (const [name, probes] of Object.entries(PROBES))
      for (const [age, band, sex = 'female'] of probes) {
        const what = `${name} at ${age} (${sex})`;
        const row = CATALOG[name].find(([s, b]) => b === band && (s === 'all' || s === sex));
        if (band !== null) expect(row, what).toBeDefined();
        await picks(name, age, sex, row);
        // The neonatal bands from the lab's two files themselves too, without a server.
        if (name.startsWith('Bilirubin'))
          for (const file of ['catalog.csv', 'catalog.json']) await picks(name, age, sex, row, file);

        // The stripped export read as R4 reads a Range (low <= age <= high, exact ages in UCUM units): the
        // same band, but for the instant on a boundary, which R4 puts in the bands on both sides of it.
        const od = resources.find((r) => r.preferredReportName === name)!;
        const intervals = (od.qualifiedInterval as Rec[]).filter((q) => q.category === 'reference');
        const y = yearsOf(age);
        const ends = intervals.flatMap((q) => [(q.age as Rec)?.low, (q.age as Rec)?.high]).filter(Boolean) as Rec[];
        const onEdge = y > 0 && ends.some((q) => Math.abs(ucumYears(q) - y) <= 1e-9 * y);
        const r4 = intervals
          .filter((q) => q.gender === undefined || q.gender === sex)
          .filter((q) => {
            const { low, high } = (q.age ?? {}) as { low?: Rec; high?: Rec };
            return (!low || ucumYears(low) <= y * (1 + 1e-12)) && (!high || y <= ucumYears(high) * (1 + 1e-12));
          })
          .map((q) => {
            const { low, high } = q.range as { low: Rec; high: Rec };
            return `${JSON.stringify(low.value)}–${JSON.stringify(high.value)} ${String(low.unit)}`;
          });
        if (!onEdge) expect(r4, `R4: ${what}`).toEqual(row ? [row[2]] : []);
        else {
          expect(r4.length, `R4: ${what}`).toBeLessThanOrEqual(2);
          if (row) expect(r4, `R4: ${what}`).toContain(row[2]);
        }
        probed++;
      }
    expect(probed).toBe(Object.values(PROBES).flat().length);
  });

  it("names the gap a band of 4–7 d leaves after 49–72 h: hours 73–95, the lab's first draft", async () => {
    const l = await lab();
    // 49–72 h is every age before hour 73; 4 d starts at hour 96 (UCUM: d = 24 h). 73 h–7 d closes the gap.
    const sheet = await readFile(join(l.dir, 'catalog.csv'), 'utf8');
    expect(sheet).toContain(',73 h,7 days,');
    await writeFile(join(l.dir, 'draft.csv'), sheet.replace(',73 h,7 days,', ',4 days,7 days,'));
    const r = await l.cli(['measures', 'lint', 'draft.csv', '-o', 'json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ checked: 10, clean: 9, withWarnings: 1 });
    expect(r.stderr).toBe(
      'warning: draft.csv:21:7 (Bilirubin, total): referenceRanges[3]: ages 73–95 h are not covered for sex all: ' +
        'the bands before it end at 72 h, and it starts at 4 d\n',
    );
    const strict = await l.cli(['measures', 'import', 'draft.csv', '--strict'], 2);
    expect(strict.stderr).toContain('ages 73–95 h are not covered');
    expect((await l.s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });
});
