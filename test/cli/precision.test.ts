// Covers: src/core/ranges.ts src/formats/json/decimals.ts src/output/diff-lines.ts
// Covers: src/formats/fhir/observation-definition.ts
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

// Precision as written. The API's *Precision fields are "significant places after the decimal point"; a
// number a person writes in text says its own (`8.0` has one), and FHIR R4 gives a decimal's trailing zeros
// meaning ("the precision of the decimal value has significance", datatypes.html#decimal). So a sheet's
// `8.0` is 8 at precision 1, every view and export shows it as `8.0`, and export then import of any
// catalog, in every format, changes nothing.

type Rec = Record<string, unknown>;
const RAW = JSON as unknown as { rawJSON: (text: string) => unknown; isRawJSON: (v: unknown) => boolean };

async function setup() {
  const server = await testServer({ seed: false, events: false });
  const dir = await tempDir();
  const env = cliEnv(server.url, dir);
  const cli = (argv: string[]) => runCli(argv, { env, cwd: dir });
  const stored = async () => (await server.call('GET', '/diagnostic-measures')).body as Rec[];
  return { server, dir, cli, stored };
}

/** The lab's sheet: bounds written with the decimals the lab reports them with. */
const SHEET = [
  'test,name,type,unit,range,sex,min,max',
  'tst_p,Creatinine,numeric,mg/dL,reference,all,0.10,1.20',
  'tst_p,Hemoglobin,numeric,g/dL,reference,female,11.0,14.0',
  'tst_p,Hemoglobin,numeric,g/dL,reference,male,13.5,17.5',
  'tst_p,Trace,numeric,mg/L,reference,all,0.0000001,8.0',
  'tst_p,Trace,numeric,mg/L,panic,all,,9.00',
].join('\r\n');

/** A FHIR resource as a server that drops unknown extensions keeps it: every `extension` gone. */
function withoutExtensions(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutExtensions);
  if (RAW.isRawJSON(v)) return v;
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => k !== 'extension')
      .map(([k, x]) => [k, withoutExtensions(x)]),
  );
}

describe('precision as written', () => {
  it('keeps the decimals of a sheet, shows them, and round-trips JSON, CSV and FHIR with 0 changes', async () => {
    const { cli, dir, stored } = await setup();
    await writeFile(join(dir, 'lab.csv'), `${SHEET}\r\n`);
    const imported = await cli(['measures', 'import', 'lab.csv']);
    expect(imported.code, imported.stderr).toBe(0);
    const byName = Object.fromEntries((await stored()).map((m) => [m.name, m]));
    expect(byName.Creatinine.referenceRanges).toEqual([
      expect.objectContaining({ min: 0.1, minPrecision: 2, max: 1.2, maxPrecision: 2, sex: 'all' }),
    ]);
    expect((byName.Hemoglobin.referenceRanges as Rec[])[0]).toMatchObject({
      min: 11,
      minPrecision: 1,
      max: 14,
      maxPrecision: 1,
    });
    // 13.5 and 17.5 say their own decimals: no precision field is needed for them.
    expect((byName.Hemoglobin.referenceRanges as Rec[])[1]).not.toHaveProperty('minPrecision');
    const trace = (byName.Trace.referenceRanges as Rec[])[0];
    expect(trace).toMatchObject({ min: 0.0000001, max: 8, maxPrecision: 1 });
    expect(trace).not.toHaveProperty('minPrecision');
    expect(byName.Trace.panicRanges).toEqual([{ max: 9, maxPrecision: 2, sex: 'all' }]);

    // Views show each value at its precision, in plain digits.
    const show = await cli(['measures', 'show', String(byName.Hemoglobin.id), '-o', 'table']);
    expect(show.stdout).toContain('11.0–14.0 g/dL');
    // The describe view's PRECISION is the places each bound is shown with: 0.0000001 has 7 of its own.
    const traceView = await cli(['measures', 'show', String(byName.Trace.id), '-o', 'table']);
    expect(traceView.stdout).toMatch(/^\s+all\s+all\s+0\.0000001–8\.0 mg\/L\s+7–1\s+rr_/m);
    const list = await cli(['measures', 'list', '-o', 'table']);
    expect(list.stdout).toMatch(/Creatinine\s+numeric\s+mg\/dL\s+0\.10–1\.20 mg\/dL/);
    expect(list.stdout).toContain('0.0000001–8.0 mg/L');

    // Each export writes them as written: plain digits, a FHIR decimal with its trailing zeros.
    const exports: Record<string, string> = {};
    for (const format of ['json', 'csv', 'fhir', 'fhir-ndjson']) {
      const out = await cli(['measures', 'export', '--format', format, '--out', `export.${format}`]);
      expect(out.code, out.stderr).toBe(0);
      exports[format] = await readFile(join(dir, `export.${format}`), 'utf8');
      expect(exports[format], format).not.toMatch(/\de-\d/);
    }
    expect(exports.json).toContain('"min": 0.0000001');
    expect(exports.json).toContain('"minPrecision": 2');
    expect(exports.csv).toContain(',0.10,1.20,2,2,');
    expect(exports.csv).toContain(',11.0,14.0,1,1,');
    expect(exports.fhir).toContain('"value": 8.0');
    expect(exports.fhir).toContain('"value": 0.0000001');
    expect(exports['fhir-ndjson']).toContain('"value":0.10');

    // Read back, in every format: nothing to change.
    // Parsed keeping each number's text (JSON.parse source text access), so 8.0 is written back as 8.0.
    const fhir = JSON.parse(exports.fhir, (_k, v, context?: { source?: string }) =>
      typeof v === 'number' ? RAW.rawJSON(context!.source!) : v,
    );
    await writeFile(join(dir, 'stripped.fhir.json'), JSON.stringify(withoutExtensions(fhir), null, 2));
    const stripped = await readFile(join(dir, 'stripped.fhir.json'), 'utf8');
    expect(stripped).not.toContain('extension');
    expect(stripped).toContain('"value": 8.0');
    // NDJSON as list writes it (the service's own bytes): its fields (id, createdBy) set aside, the rest the same.
    const ndjson = await cli(['measures', 'list', '-o', 'ndjson']);
    await writeFile(join(dir, 'list.ndjson'), ndjson.stdout);
    const files = [
      'export.json',
      'list.ndjson',
      'export.csv',
      'export.fhir',
      'export.fhir-ndjson',
      'stripped.fhir.json',
    ];
    for (const file of files) {
      const args = ['measures', 'import', file, '--dry-run'];
      if (file.endsWith('.fhir-ndjson')) args.push('--format', 'auto');
      if (file.startsWith('stripped')) args.push('--test', 'tst_p');
      const plan = await cli(args);
      expect(plan.code, `${file}: ${plan.stderr}`).toBe(0);
      expect(plan.stdout, file).toContain('dry run: 0 to create, 0 to update, 3 unchanged, 0 in error');
    }
  });

  it('shows every number in plain digits: a describe view, a list column, a dry run', async () => {
    const { cli } = await setup();
    const made = await cli([
      'measures',
      'create',
      '--test',
      't',
      '--name',
      'Tiny',
      '--breakdown-min',
      '0.0000001',
      '-o',
      'json',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const { id } = JSON.parse(made.stdout) as { id: string };
    expect((await cli(['measures', 'show', id, '-o', 'table'])).stdout).toMatch(/^Breakdown min:\s+0\.0000001$/m);
    const list = await cli(['measures', 'list', '--fields', 'name,numericBreakdownMin', '-o', 'table']);
    expect(list.stdout).toMatch(/^Tiny\s+0\.0000001$/m);
    const plan = await cli(['measures', 'update', id, '--breakdown-min', '0.00000002', '--dry-run']);
    expect(plan.stdout).toContain('    numericBreakdownMin: 0.0000001 → 0.00000002\n');
    for (const out of [made.stdout, list.stdout, plan.stdout]) expect(out).not.toMatch(/\de-\d/);
  });

  it('shows a change of precision alone in a dry run', async () => {
    const { cli, dir, stored } = await setup();
    await writeFile(join(dir, 'lab.csv'), `${SHEET}\r\n`);
    expect((await cli(['measures', 'import', 'lab.csv'])).code).toBe(0);
    const creatinine = (await stored()).find((m) => m.name === 'Creatinine')!;
    const set = await cli([
      'measures',
      'update',
      String(creatinine.id),
      '--set-reference-range',
      '1 0.1-1.2 precision=1',
    ]);
    expect(set.code, set.stderr).toBe(0);
    const plan = await cli(['measures', 'import', 'lab.csv', '--dry-run']);
    expect(plan.stdout).toContain(`~ update     lab.csv line 2 (Creatinine) ${creatinine.id}`);
    expect(plan.stdout).toMatch(/ {4}referenceRanges\[0\]: (rr_\S+: )?0\.1–1\.2 → (rr_\S+: )?0\.10–1\.20\n/);
    expect(plan.stdout).toContain('dry run: 0 to create, 1 to update, 2 unchanged, 0 in error');
  });

  it('keeps a whole critical limit whole beside bounds with decimals, in FHIR with extensions removed', async () => {
    const { cli, dir, stored } = await setup();
    // A neonatal band as a lab writes it: 0.5–10.0 with a critical limit of >20, a whole number.
    const sheet = [
      'Panel,Analyte,Units,Age from,Age to,Ref low,Ref high,Critical high',
      'tst_p,Bili,mg/dL,0,28d,0.5,10.0,>20',
    ];
    await writeFile(join(dir, 'bili.csv'), `${sheet.join('\r\n')}\r\n`);
    expect((await cli(['measures', 'import', 'bili.csv'])).code).toBe(0);
    const [bili] = await stored();
    expect(bili.panicRanges).toEqual([{ max: 20, sex: 'all', ageMin: 0, ageMax: 29 / 365.25 }]);
    const out = await cli(['measures', 'export', '--format', 'fhir']);
    expect(out.code, out.stderr).toBe(0);
    // R4's decimalPrecision is one count of decimals for the measure: 0.5 and 10.0 have one, 20 none, so no
    // single count is true of them, and a reader that has only the decimals (extensions dropped) must not get one.
    const fhir = JSON.parse(out.stdout, (_k, v, context?: { source?: string }) =>
      typeof v === 'number' ? RAW.rawJSON(context!.source!) : v,
    );
    await writeFile(join(dir, 'bare.fhir.json'), JSON.stringify(withoutExtensions(fhir), null, 2));
    const plan = await cli(['measures', 'import', 'bare.fhir.json', '--test', 'tst_p', '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).not.toContain('→');
    expect(plan.stdout).toContain('dry run: 0 to create, 0 to update, 1 unchanged, 0 in error');
  });

  it('writes a range with SI bounds alone in the SI unit, so FHIR without extensions keeps its limits', async () => {
    const { cli, dir, stored } = await setup();
    const glucose = {
      test: 'tst_g',
      name: 'Glucose',
      type: 'numeric',
      unit: 'mg/dL',
      siunit: 'mmol/L',
      referenceRanges: [{ simin: 3.9, simax: 5.6, sex: 'all' }],
      panicRanges: [{ simin: 2.2, simax: 25, sex: 'all' }],
    };
    await writeFile(join(dir, 'g.json'), JSON.stringify([glucose]));
    expect((await cli(['measures', 'import', 'g.json'])).code).toBe(0);
    const out = await cli(['measures', 'export', '--format', 'fhir']);
    const fhir = JSON.parse(out.stdout, (_k, v, context?: { source?: string }) =>
      typeof v === 'number' ? RAW.rawJSON(context!.source!) : v,
    );
    const od = fhir.entry[0].resource;
    // R4's Range carries its unit: these bounds are in mmol/L (UCUM), not the customary mg/dL.
    const ranges = od.qualifiedInterval.map((q: Rec) => JSON.stringify(q.range));
    expect(ranges).toEqual([
      '{"low":{"value":3.9,"unit":"mmol/L","system":"http://unitsofmeasure.org","code":"mmol/L"},' +
        '"high":{"value":5.6,"unit":"mmol/L","system":"http://unitsofmeasure.org","code":"mmol/L"}}',
      '{"low":{"value":2.2,"unit":"mmol/L","system":"http://unitsofmeasure.org","code":"mmol/L"},' +
        '"high":{"value":25,"unit":"mmol/L","system":"http://unitsofmeasure.org","code":"mmol/L"}}',
    ]);
    // With our extensions and without them, the file is the measure as stored: nothing to change.
    await writeFile(join(dir, 'g.fhir.json'), JSON.stringify(fhir));
    await writeFile(join(dir, 'bare.fhir.json'), JSON.stringify(withoutExtensions(fhir)));
    for (const [file, more] of [
      ['g.fhir.json', []],
      ['bare.fhir.json', ['--test', 'tst_g']],
    ] as const) {
      const plan = await cli(['measures', 'import', file, ...more, '--dry-run']);
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout, file).toContain('dry run: 0 to create, 0 to update, 1 unchanged, 0 in error');
    }
    const [m] = await stored();
    expect(m.referenceRanges).toMatchObject([{ simin: 3.9, simax: 5.6 }]);
  });

  it('pairs ranges by id, then by sex and band: an inserted band is one addition', async () => {
    const { cli, dir } = await setup();
    const rows = [
      'test,name,type,unit,range,sex,ageMin,ageMax,min,max',
      'tst_p,Phosphorus,numeric,mg/dL,reference,all,1,17,4.0,7.0',
      'tst_p,Phosphorus,numeric,mg/dL,reference,all,18,120,2.5,4.5',
    ];
    await writeFile(join(dir, 'p.csv'), `${rows.join('\r\n')}\r\n`);
    expect((await cli(['measures', 'import', 'p.csv'])).code).toBe(0);
    expect((await cli(['measures', 'export', '--format', 'csv', '--out', 'p-export.csv'])).code).toBe(0);
    const exported = (await readFile(join(dir, 'p-export.csv'), 'utf8')).split('\r\n');
    // The lab inserts an infant band before the others, on a row of its own, with no id.
    const header = exported[0].replace(/^\ufeff/, '').split(',');
    const infant = exported[1].split(',');
    for (const [column, value] of Object.entries({ ageMin: '0', ageMax: '11mo', min: '4.5', max: '8.3', rangeId: '' }))
      infant[header.indexOf(column)] = value;
    const withInfant = [exported[0], infant.join(','), ...exported.slice(1)].join('\r\n');
    await writeFile(join(dir, 'p2.csv'), withInfant);
    const plan = await cli(['measures', 'import', 'p2.csv', '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    const lines = plan.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^~ update {5}p2\.csv line 2 \(Phosphorus\) msr_/);
    expect(lines[1]).toMatch(/^ {4}referenceRanges\[0\]: added 4\.5–8\.3 \(/);
    expect(lines.slice(2)).toEqual(['dry run: 0 to create, 1 to update, 0 unchanged, 0 in error; nothing was sent']);
  });
});
