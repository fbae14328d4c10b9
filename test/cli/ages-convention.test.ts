// Covers: src/core/ages.ts src/schemas/ages.ts src/formats/fhir/qualified-interval.ts src/core/interpret.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// One convention for ages, checked from outside: FHIR R4's Range (https://hl7.org/fhir/R4/datatypes.html#Range:
// its ends are exact values, and an extension may not change what its element means, §2.5.0.1), UCUM's units
// of time (a = 365.25 d, mo = a/12, wk = 7 d, d = 24 h: https://ucum.org/ucum §31–32), and the lab's
// completed-unit notation (0–24 h is every age before hour 25; 8 d–12 mo every age from day 8 until 13 months).

type Rec = Record<string, unknown>;
const CATALOG = new URL('../fixtures/ages/neonatal.json', import.meta.url).pathname;

/** The catalog imported; its measures by name, as the server holds them. */
async function imported() {
  const env = await cliOnServer({ seed: false, events: false });
  const r = await env.cli(['measures', 'import', CATALOG]);
  expect(r.code, r.stderr).toBe(0);
  const all = (await env.s.call('GET', '/diagnostic-measures')).body as Rec[];
  return { ...env, byName: Object.fromEntries(all.map((m) => [m.name as string, m])) };
}

/** Every extension and modifierExtension removed, as a FHIR server that drops unknown extensions does. */
function stripped(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripped);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => k !== 'extension' && k !== 'modifierExtension')
      .map(([k, x]) => [k, stripped(x)]),
  );
}

/** An R4 reader of its own: a Quantity of age as years by UCUM, and a Range holding low <= age <= high. */
const PER_YEAR: Record<string, number> = { a: 1, mo: 12, wk: 365.25 / 7, d: 365.25, h: 365.25 * 24 };
const years = (q: Rec) => (q.value as number) / PER_YEAR[q.code as string];
function r4Bands(od: Rec, age: number, sex: string): string[] {
  return (od.qualifiedInterval as Rec[])
    .filter((q) => q.category === 'reference' && (q.gender === undefined || q.gender === sex))
    .filter((q) => {
      const range = q.age as { low?: Rec; high?: Rec };
      return (!range.low || years(range.low) <= age) && (!range.high || age <= years(range.high));
    })
    .map((q) => q.id as string);
}

describe('ages mean the same to every reader', () => {
  it('shows the bands as the lab wrote them and stores exact years, the upper end the first age past', async () => {
    const { cli, byName } = await imported();
    const hgb = byName.Hemoglobin.referenceRanges as Rec[];
    expect(hgb.map((r) => [r.ageMin, r.ageMax])).toEqual([
      [0, 8 / 365.25],
      [8 / 365.25, 13 / 12],
      [13 / 12, 18],
      [18, 121],
      [18, 121],
    ]);
    const bili = byName['Bilirubin, total'].referenceRanges as Rec[];
    expect(bili.map((r) => [r.ageMin, r.ageMax])).toEqual([
      [0, 25 / 8766],
      [25 / 8766, 8 / 365.25],
      [8 / 365.25, 29 / 365.25],
      [29 / 365.25, 121],
    ]);
    const show = (await cli(['measures', 'show', byName.Hemoglobin.id as string, '-o', 'table'])).stdout;
    for (const band of ['0–7 d', '8 d–12 mo', '13 mo–17 y', 'male 18–120 y', 'female 18–120 y'])
      expect(show).toContain(band);
    const shownBili = (await cli(['measures', 'show', byName['Bilirubin, total'].id as string, '-o', 'table'])).stdout;
    for (const band of ['0–24 h', '25 h–7 d', '8–28 d', '29 d–120 y']) expect(shownBili).toContain(band);
  });

  it('re-imports a FHIR export with every extension removed to the same bands: 8 d–12 mo, 25 h–7 d', async () => {
    const { cli, dir } = await imported();
    const r = await cli(['measures', 'export', '--format', 'fhir']);
    expect(r.code, r.stderr).toBe(0);
    const bare = stripped(JSON.parse(r.stdout));
    expect(JSON.stringify(bare)).not.toContain('extension');
    await writeFile(join(dir, 'bare.fhir.json'), JSON.stringify(bare));
    const back = await cli(['measures', 'import', 'bare.fhir.json', '--test', 'tst_neo', '--dry-run']);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain('dry run: 0 to create, 0 to update, 2 unchanged');
    expect(back.stdout).not.toMatch(/ageM|→/);
  });

  it('puts every age in the band evaluate picks, read as R4 reads a Range, but for a boundary instant', async () => {
    const { cli, byName } = await imported();
    const r = await cli(['measures', 'export', '--format', 'fhir']);
    const ods = (stripped(JSON.parse(r.stdout)) as { entry: { resource: Rec }[] }).entry.map((e) => e.resource);
    const od = (name: string) => ods.find((o) => o.preferredReportName === name)!;
    const picked = async (name: string, age: string, sex: string) => {
      const args = ['measures', 'evaluate', byName[name].id as string, '--value', '10', '--age', age, '--sex', sex];
      const e = await cli([...args, '-o', 'json']);
      expect(e.code, e.stderr).toBe(0);
      return (JSON.parse(e.stdout).reference as Rec[]).map((x) => x.id as string);
    };
    // Ages between the boundaries, in the units a clinician gives them; [name, age, years by UCUM].
    const between: [string, string, number][] = [
      ['Bilirubin, total', '12h', 12 / 8766],
      ['Bilirubin, total', '24.5h', 24.5 / 8766],
      ['Bilirubin, total', '100h', 100 / 8766],
      ['Bilirubin, total', '7.9d', 7.9 / 365.25],
      ['Bilirubin, total', '28.9d', 28.9 / 365.25],
      ['Bilirubin, total', '40', 40],
      ['Hemoglobin', '7.5d', 7.5 / 365.25],
      ['Hemoglobin', '12.9mo', 12.9 / 12],
      ['Hemoglobin', '17.99', 17.99],
      ['Hemoglobin', '120.5', 120.5],
    ];
    for (const [name, age, y] of between)
      for (const sex of ['male', 'female']) {
        const ours = await picked(name, age, sex);
        expect(ours, `${name} ${age} ${sex}`).toHaveLength(1);
        expect(r4Bands(od(name), y, sex), `${name} ${age} ${sex}`).toEqual(ours);
      }
    // On a boundary evaluate picks the band that starts there; an R4 reader has the instant in both.
    const on: [string, string, number][] = [
      ['Bilirubin, total', '25h', 25 / 8766],
      ['Bilirubin, total', '8d', 8 / 365.25],
      ['Bilirubin, total', '29d', 29 / 365.25],
      ['Hemoglobin', '8d', 8 / 365.25],
      ['Hemoglobin', '13mo', 13 / 12],
      ['Hemoglobin', '18', 18],
    ];
    for (const [name, age, y] of on) {
      const [ours] = await picked(name, age, 'female');
      const theirs = r4Bands(od(name), y, 'female');
      expect(theirs, `${name} ${age}`).toHaveLength(2);
      expect(theirs[1], `${name} ${age}`).toBe(ours);
    }
    // Past the oldest band (121 y is the first age past 18–120 y) nothing applies.
    expect(await picked('Hemoglobin', '121', 'male')).toEqual([]);
  });

  it('takes age=12mo-1y and age=24h-1d, as the second year and the second day', async () => {
    const { cli, s, byName } = await imported();
    const id = byName.Hemoglobin.id as string;
    const add = await cli(['measures', 'update', id, '--add-panic-range', '<5 age=12mo-1y']);
    expect(add.code, add.stderr).toBe(0);
    const day = await cli([
      'measures',
      'update',
      byName['Bilirubin, total'].id as string,
      '--add-panic-range',
      '>20 age=24h-1d',
    ]);
    expect(day.code, day.stderr).toBe(0);
    const hgb = (await s.call('GET', `/diagnostic-measures/${id}`)).body;
    expect(hgb.panicRanges).toEqual([{ min: 5, sex: 'all', ageMin: 1, ageMax: 2 }]);
    const show = await cli(['measures', 'show', byName['Bilirubin, total'].id as string, '-o', 'table']);
    expect(show.stdout).toMatch(/all {2}1 d {4}> 20 mg\/dL/);
    const backwards = await cli(['measures', 'update', id, '--add-panic-range', '<5 age=3-1y']);
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toContain('"3-1y" holds no age: it starts at 3y, not before 1y, the last age it covers');
  });

  it('keeps every band through JSON text that holds 15 significant digits, and through both exports', async () => {
    const { cli, dir } = await imported();
    const listed = JSON.parse((await cli(['measures', 'list', '-o', 'json'])).stdout) as Rec[];
    // As a spreadsheet, a database or a JSON encoder keeping 15 digits writes the numbers back.
    const text = JSON.stringify(listed, (k, v) =>
      (k === 'ageMin' || k === 'ageMax') && typeof v === 'number' ? Number(v.toPrecision(15)) : v,
    );
    expect(text).toContain('"ageMax":1.08333333333333');
    await writeFile(join(dir, 'fifteen.json'), text);
    const back = await cli(['measures', 'import', 'fifteen.json', '--dry-run']);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain('dry run: 0 to create, 0 to update, 2 unchanged');
    for (const format of ['json', 'csv']) {
      const file = join(dir, `catalog.${format}`);
      const exp = await cli(['measures', 'export', '--format', format, '--out', file]);
      expect(exp.code, exp.stderr).toBe(0);
      const again = await cli(['measures', 'import', file, '--dry-run']);
      expect(again.stdout, format).toContain('dry run: 0 to create, 0 to update, 2 unchanged');
    }
    const json = JSON.parse((await cli(['measures', 'export', '--format', 'json'])).stdout) as Rec[];
    const hgb = json.find((m) => m.name === 'Hemoglobin')!.referenceRanges as Rec[];
    expect(hgb.map((r) => [r.ageMin, r.ageMax])).toEqual([
      ['0', '7d'],
      ['8d', '12mo'],
      ['13mo', '17y'],
      ['18y', '120y'],
      ['18y', '120y'],
    ]);
  });
});
