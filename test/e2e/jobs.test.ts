import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

const TOKEN = 'jobs-token-0123456789';

async function server(args: string[] = ['--seed']) {
  const dir = await tempDir();
  const s = await serveProcess([...args, '--data', join(dir, 'data.json'), '--token', `${TOKEN}:acc_jobs`]);
  const env = { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN, CLINADMIN_CONFIG_DIR: join(dir, 'config') };
  const run = (a: string[], o: { input?: string; cwd?: string } = {}) =>
    clinadmin(a, { env, cwd: o.cwd ?? dir, ...(o.input !== undefined ? { input: o.input } : {}) });
  const get = async (path: string) =>
    (await fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
  return { ...s, dir, env, run, get };
}

const m = (name: string, extra: Record<string, unknown> = {}) => ({
  test: 'tst_lipid',
  name,
  type: 'numeric',
  unit: 'mg/dL',
  referenceRanges: [{ max: 200 }],
  ...extra,
});

describe('measures import', () => {
  it('reads every input form: array, object, wrapper, NDJSON, stdin and several files', async () => {
    const s = await server([]);
    await writeFile(join(s.dir, 'array.json'), JSON.stringify([m('A'), m('B')]));
    await writeFile(join(s.dir, 'one.json'), JSON.stringify(m('C')));
    await writeFile(join(s.dir, 'wrapped.json'), JSON.stringify({ diagnosticAnalyzers: [m('D')] }));
    await writeFile(join(s.dir, 'lines.ndjson'), `${JSON.stringify(m('E'))}\n\n${JSON.stringify(m('F'))}\n`);
    const r = await s.run(
      ['measures', 'import', 'array.json', 'one.json', 'wrapped.json', 'lines.ndjson', '-', '-o', 'json'],
      { input: JSON.stringify([m('G')]) },
    );
    expect(r.exitCode).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ created: 7, updated: 0, unchanged: 0, failed: 0 });
    expect(summary.records.map((x: { source: string; outcome: string }) => `${x.source}:${x.outcome}`)).toEqual([
      'array.json:created',
      'array.json:created',
      'one.json:created',
      'wrapped.json:created',
      'lines.ndjson:created',
      'lines.ndjson:created',
      'stdin:created',
    ]);
    expect(summary.records[5]).toMatchObject({ line: 3, name: 'F' });
    expect(((await s.get('/diagnostic-measures')) as { name: string }[]).map((x) => x.name).sort()).toEqual([
      'A',
      'B',
      'C',
      'D',
      'E',
      'F',
      'G',
    ]);
  });

  it('copies a facility: list -o json from one server imports into another as it is', async () => {
    const a = await server();
    const b = await server([]);
    const exported = await a.run(['measures', 'list', '-o', 'json']);
    const r = await b.run(['measures', 'import', '-'], { input: exported.stdout });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('note: set aside fields the service sets: id (6), createdBy (6)');
    const strip = (list: Record<string, unknown>[]) =>
      list
        .map(({ id: _i, createdBy: _c, ...rest }) => rest)
        .sort((x, y) => String(x.name).localeCompare(String(y.name)));
    expect(strip(await b.get('/diagnostic-measures'))).toEqual(strip(JSON.parse(exported.stdout)));
    const again = await b.run(['measures', 'import', '-', '-o', 'json'], { input: exported.stdout });
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, updated: 0, unchanged: 6 });
  });

  it('names file, line and column of a syntax error, and file, record, name and field of a bad record', async () => {
    const s = await server();
    const before = { m: await s.get('/diagnostic-measures'), n: await s.get('/notifications') };
    await writeFile(join(s.dir, 'syntax.json'), '[\n  {"test": "t", "name": "ok"},\n  {"test": "t" "name": "x"}\n]');
    const syntax = await s.run(['measures', 'import', 'syntax.json']);
    expect(syntax.exitCode).toBe(2);
    expect(syntax.stderr).toContain('error: syntax.json is not valid JSON: line 3, column 16: expected "," or "}"');
    await writeFile(join(s.dir, 'bad.ndjson'), '{"test":"t","name":"ok"}\n{"test":"t","name":\n');
    expect((await s.run(['measures', 'import', 'bad.ndjson'])).stderr).toContain(
      'bad.ndjson is not valid NDJSON: line 2, column 20',
    );
    await writeFile(join(s.dir, 'good.json'), JSON.stringify([m('Fine')]));
    await writeFile(
      join(s.dir, 'invalid.json'),
      JSON.stringify([
        m('Fine too'),
        m('Reversed', {
          referenceRanges: [
            { min: 1, max: 2 },
            { min: 9, max: 3 },
          ],
        }),
        { name: 'No test' },
      ]),
    );
    const invalid = await s.run(['measures', 'import', 'good.json', 'invalid.json']);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toContain('error: 2 invalid records; nothing was sent');
    expect(invalid.stderr).toContain(
      '  - invalid.json record 2 (Reversed): referenceRanges[1].max: min (9) must not be greater than max (3)',
    );
    expect(invalid.stderr).toContain('  - invalid.json record 3 (No test): test: is required');
    const dup = await s.run(['measures', 'import', 'good.json', 'good.json']);
    expect(dup.exitCode).toBe(2);
    expect(dup.stderr).toContain(
      'good.json record 1 (Fine): the same test tst_lipid and name Fine as good.json record 1 (Fine)',
    );
    expect({ m: await s.get('/diagnostic-measures'), n: await s.get('/notifications') }).toEqual(before);
  });

  it('is repeatable: the second run creates nothing, and a changed record updates only what differs', async () => {
    const s = await server([]);
    await writeFile(join(s.dir, 'lipids.json'), JSON.stringify([m('HDL'), m('LDL')]));
    expect(JSON.parse((await s.run(['measures', 'import', 'lipids.json', '-o', 'json'])).stdout)).toMatchObject({
      created: 2,
    });
    expect(JSON.parse((await s.run(['measures', 'import', 'lipids.json', '-o', 'json'])).stdout)).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 2,
    });
    await writeFile(join(s.dir, 'lipids.json'), JSON.stringify([m('HDL', { unit: 'mmol/L' }), m('LDL')]));
    const dry = await s.run(['measures', 'import', 'lipids.json', '--dry-run']);
    expect(dry.exitCode).toBe(0);
    // Changes only, and one line counting what is unchanged.
    expect(dry.stdout).toMatch(
      new RegExp(
        String.raw`^~ update {5}lipids\.json record 1 \(HDL\) msr_\S+\n {4}unit: "mg/dL" → "mmol/L"\n` +
          String.raw`= 1 unchanged \(--show-unchanged lists them\)\n`,
      ),
    );
    const all = await s.run(['measures', 'import', 'lipids.json', '--dry-run', '--show-unchanged']);
    expect(all.stdout).toMatch(/\n= unchanged {2}lipids\.json record 2 \(LDL\) msr_\S+\n/);
    expect(dry.stdout).toContain('dry run: 0 to create, 1 to update, 1 unchanged, 0 in error; nothing was sent');
    expect(((await s.get('/diagnostic-measures')) as { unit: string }[]).map((x) => x.unit)).toEqual([
      'mg/dL',
      'mg/dL',
    ]);
    const r = JSON.parse(
      (await s.run(['measures', 'import', 'lipids.json', '-o', 'json', '--report', 'report.json'])).stdout,
    );
    expect(r).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    expect(r.records[0]).toMatchObject({ outcome: 'updated', changed: ['unit'] });
    expect(JSON.parse(await readFile(join(s.dir, 'report.json'), 'utf8'))).toEqual(r);
    expect(((await s.get('/diagnostic-measures')) as { unit: string }[]).map((x) => x.unit)).toEqual([
      'mmol/L',
      'mg/dL',
    ]);
  });

  it("is repeatable on a lab's own catalog, whose ranges carry no ids: the second run sends nothing", async () => {
    const s = await server([]);
    // As a lab keeps it (docs/catalogs.md): one row a range, ages in days, a panic range, no ids anywhere.
    await writeFile(
      join(s.dir, 'catalog.csv'),
      [
        'test,name,type,unit,range,sex,ageMin,ageMax,min,max',
        'tst_lytes,Potassium,numeric,mmol/L,reference,all,18,120,3.5,5.1',
        'tst_lytes,Potassium,,,panic,all,,,2.5,6.5',
        'tst_lytes,Sodium,numeric,mmol/L,reference,all,0,28d,133,146',
        'tst_lytes,Sodium,,,reference,all,29d,120,135,145',
        'tst_lytes,Sodium,,,panic,all,,,120,160',
        'tst_cbc,Hemoglobin,numeric,g/dL,reference,female,18,120,12,15.5',
        'tst_cbc,Hemoglobin,,,reference,male,18,120,13.5,17.5',
        '',
      ].join('\r\n'),
    );
    const first = await s.run(['measures', 'import', 'catalog.csv', '-o', 'json']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ created: 3, updated: 0, unchanged: 0, failed: 0 });
    const stored = await s.get('/diagnostic-measures');
    const again = await s.run(['measures', 'import', 'catalog.csv', '-o', 'json', '--verbose']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, updated: 0, unchanged: 3, failed: 0 });
    // One read of the list, equal by its digests: no write, and no second read for whole records.
    expect(again.stderr.match(/^→ \S+ \S+/gm)).toEqual([`→ GET ${s.url}/diagnostic-measures`]);
    expect(await s.get('/diagnostic-measures')).toEqual(stored);
  });

  it('lets the other records through when one fails on the server, lists the failure and exits 1', async () => {
    const s = await server(['--max-body', '3000']);
    const records = [m('One'), m('Too big', { description: 'x'.repeat(5000) }), m('Three')];
    await writeFile(join(s.dir, 'mixed.json'), JSON.stringify(records));
    const r = await s.run(['measures', 'import', 'mixed.json', '--concurrency', '1']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      'failed: mixed.json record 2 (Too big): the API refused POST /diagnostic-measures (413): ' +
        'the body is larger than the limit of 3000 bytes',
    );
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 2, failed: 1 });
    expect(((await s.get('/diagnostic-measures')) as { name: string }[]).map((x) => x.name)).toEqual(['One', 'Three']);
  });

  it('reports every record of a long import in the order of the file, as the report file does', async () => {
    const s = await server(['--max-body', '3000']);
    const records = Array.from({ length: 2500 }, (_, i) =>
      m(`M${i}`, i % 500 === 7 ? { description: 'x'.repeat(5000) } : {}),
    );
    await writeFile(join(s.dir, 'many.json'), JSON.stringify(records, null, 2));
    const r = await s.run(['measures', 'import', 'many.json', '--concurrency', '16', '--report', 'report.json']);
    expect(r.exitCode).toBe(1);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ created: 2495, failed: 5, notSent: 0, interrupted: false });
    expect(summary.records.map((x: { position: number }) => x.position)).toEqual(records.map((_, i) => i + 1));
    expect(
      summary.records.filter((x: { outcome: string }) => x.outcome === 'failed').map((x: { name: string }) => x.name),
    ).toEqual(['M7', 'M507', 'M1007', 'M1507', 'M2007']);
    // Byte for byte the report, and as JSON.stringify lays it out (execa drops the last newline).
    expect(await readFile(join(s.dir, 'report.json'), 'utf8')).toBe(`${r.stdout}\n`);
    expect(r.stdout).toBe(JSON.stringify(summary, null, 2));
    const onServer = (await s.get('/diagnostic-measures')) as { id: string; name: string }[];
    const created = summary.records.filter((x: { outcome: string }) => x.outcome === 'created');
    expect(new Map(onServer.map((x) => [x.id, x.name]))).toEqual(
      new Map(created.map((x: { id: string; name: string }) => [x.id, x.name])),
    );
  });

  it('says so, sending nothing, when the temp folder for its spool cannot be written', async () => {
    const s = await server([]);
    // Past the 4 MB the import holds in memory, so the check needs its spool file.
    const records = Array.from({ length: 1000 }, (_, i) => m(`M${i}`, { description: 'x'.repeat(9000) }));
    await writeFile(join(s.dir, 'big.json'), JSON.stringify(records));
    const missing = join(s.dir, 'no-such-folder');
    const r = await clinadmin(['measures', 'import', 'big.json'], { env: { ...s.env, TMPDIR: missing }, cwd: s.dir });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`error: cannot use a spool file in ${missing}: ENOENT`);
    expect(r.stderr).toContain(
      '; nothing was sent\nhint: set TMPDIR to a folder with room for about the size of the input',
    );
    expect(r.stdout).toBe('');
    expect(await s.get('/diagnostic-measures')).toEqual([]);
    // A small import is held in memory and needs no temp folder.
    await writeFile(join(s.dir, 'two.json'), JSON.stringify(records.slice(0, 2)));
    const small = await clinadmin(['measures', 'import', 'two.json'], {
      env: { ...s.env, TMPDIR: missing },
      cwd: s.dir,
    });
    expect(small.exitCode).toBe(0);
    expect(JSON.parse(small.stdout)).toMatchObject({ created: 2 });
  });

  it('stops sending on Ctrl-C, waits for requests in flight, reports what was done and exits 130', async () => {
    const s = await server([]);
    const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify(m(`M${i}`))).join('\n');
    await writeFile(join(s.dir, 'many.ndjson'), lines);
    const proc = clinadmin(['measures', 'import', 'many.ndjson', '--concurrency', '2', '--verbose', '-o', 'json'], {
      env: s.env,
      cwd: s.dir,
    });
    let err = '';
    let signalled = 0;
    proc.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      // Ctrl-C twice, as an impatient person would: the second must not cut the summary short.
      if (signalled === 0 && (err.match(/^created/gm) ?? []).length >= 50) {
        signalled++;
        proc.kill('SIGINT');
      } else if (signalled === 1 && err.includes('interrupted: finishing requests in flight')) {
        // The second Ctrl-C lands while the first is being handled.
        signalled++;
        proc.kill('SIGINT');
      }
    });
    const r = await proc;
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toContain('interrupted: finishing requests in flight, sending nothing more');
    const summary = JSON.parse(r.stdout);
    expect(summary.interrupted).toBe(true);
    expect(summary.created).toBeGreaterThanOrEqual(50);
    expect(summary.notSent).toBeGreaterThan(0);
    expect(summary.created + summary.notSent + summary.failed).toBe(3000);
    const onServer = (await s.get('/diagnostic-measures')) as { id: string }[];
    expect(onServer.length).toBe(summary.created);
    expect(new Set(onServer.map((x) => x.id))).toEqual(
      new Set(
        summary.records.filter((x: { outcome: string }) => x.outcome === 'created').map((x: { id: string }) => x.id),
      ),
    );
  });

  it('warns about clinical sense, and --strict makes warnings errors', async () => {
    const s = await server([]);
    const record = {
      test: 'tst_k',
      name: 'Potassium',
      type: 'numeric',
      referenceRanges: [
        { min: 3.5, max: 5.1, simin: 3.5, simax: 5.1, sex: 'male', ageMin: 18, ageMax: 65 },
        { min: 3.4, max: 5.0, sex: 'male', ageMin: 60, ageMax: 120 },
        { min: 3.55, minPrecision: 1, max: 5.2, simin: 5.2, simax: 5.3, sex: 'female' },
      ],
      panicRanges: [{ max: 4, sex: 'male', ageMin: 18, ageMax: 65 }],
    };
    await writeFile(join(s.dir, 'k.json'), JSON.stringify([record]));
    const r = await s.run(['measures', 'lint', 'k.json']);
    expect(r.exitCode).toBe(0);
    const w = r.stderr;
    expect(w).toContain('warning: k.json record 1 (Potassium): unit: a numeric measure has no unit');
    expect(w).toContain('referenceRanges[1]: its age band overlaps referenceRanges[0] for sex male');
    // Critical above 4 (FHIR's critical range): results from 4 to 5.1, inside the reference range, would be critical.
    expect(w).toContain(
      'panicRanges[0].max: the critical high limit 4 is below the high end 5.1 of referenceRanges[0]',
    );
    expect(w).toContain(
      'referenceRanges[2].simin: SI and conventional bounds disagree in direction with referenceRanges[0].simax: ' +
        'conventional 5.1 > 3.55 but SI 5.1 < 5.2',
    );
    expect(w).toContain('panicRanges[0].max: the critical high limit 4 is below the high end 5 of referenceRanges[1]');
    expect(w).toContain('referenceRanges[2].min: 3.55 has more decimals than its stated precision 1');
    // The summary has the shape of import's: the counts, then each record with what was found.
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ checked: 1, clean: 0, withWarnings: 1 });
    expect(summary.records[0]).toMatchObject({ source: 'k.json', position: 1, name: 'Potassium', outcome: 'warnings' });
    expect(summary.records[0].warnings).toHaveLength(6);
    const sentence = await s.run(['measures', 'lint', 'k.json', '-o', 'table']);
    expect(sentence.stdout).toBe('1 checked, 0 clean, 1 with warnings (6 warnings)');
    expect((await s.run(['measures', 'lint', 'k.json', '--strict'])).exitCode).toBe(1);
    const strict = await s.run(['measures', 'import', 'k.json', '--strict']);
    expect(strict.exitCode).toBe(2);
    expect(strict.stderr).toContain('(an error with --strict)');
    expect(await s.get('/diagnostic-measures')).toEqual([]);
    const loose = await s.run(['measures', 'import', 'k.json']);
    expect(loose.exitCode).toBe(0);
    expect(loose.stderr).toContain('warning:');
  });
});

describe('coverages apply', () => {
  const cov = (name: string, extra: Record<string, unknown> = {}) => ({
    contract: 'ctr_acme_2026',
    name,
    type: 'deduction',
    paymentMethod: 'postpaid',
    amount: 10,
    ...extra,
  });

  it('converges: creates, updates, leaves alone, and reports zero changes the second time', async () => {
    const s = await server();
    await writeFile(
      join(s.dir, 'seed.json'),
      JSON.stringify([cov('CBC copay', { amount: 20 }), cov('New rule'), cov('Tubes', { contract: 'ctr_state_2026' })]),
    );
    const dry = await s.run(['coverages', 'apply', 'seed.json', '--dry-run', '--exit-code']);
    expect(dry.exitCode).toBe(1);
    expect(dry.stdout).toMatch(/~ update {5}seed\.json record 1 \(CBC copay\) cov_acme_cbc\n {4}amount: 15 → 20\n/);
    expect(dry.stdout).toContain('+ create     seed.json record 2 (New rule)');
    expect(dry.stdout).toContain('dry run: 2 to create, 1 to update, 0 unchanged, 0 in error; nothing was sent');
    const first = await s.run(['coverages', 'apply', 'seed.json', '-o', 'json']);
    expect(first.exitCode).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ created: 2, updated: 1, unchanged: 0, failed: 0 });
    const second = await s.run(['coverages', 'apply', 'seed.json', '-o', 'json']);
    expect(JSON.parse(second.stdout)).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    const drift = await s.run(['coverages', 'apply', 'seed.json', '--dry-run', '--exit-code']);
    expect(drift.exitCode).toBe(0);
    const all = (await s.get('/insurance-coverages')) as { name: string }[];
    expect(all.filter((c) => c.name === 'New rule')).toHaveLength(1);
  });

  it('reports a change to the create-only contract as an error for that record, applying the rest', async () => {
    const s = await server();
    await writeFile(
      join(s.dir, 'moved.json'),
      JSON.stringify([{ id: 'cov_acme_cbc', ...cov('CBC copay', { contract: 'ctr_state_2026' }) }, cov('Other')]),
    );
    // A dry run exits as the real run will: 1 for the record in error, with or without --exit-code.
    for (const flags of [['--dry-run'], ['--dry-run', '--exit-code']]) {
      const dry = await s.run(['coverages', 'apply', 'moved.json', ...flags]);
      expect(dry.exitCode, flags.join(' ')).toBe(1);
      expect(dry.stdout).toContain('dry run: 1 to create, 0 to update, 0 unchanged, 1 in error; nothing was sent');
    }
    await writeFile(
      join(s.dir, 'only-error.json'),
      JSON.stringify([{ id: 'cov_acme_cbc', ...cov('CBC copay', { contract: 'ctr_state_2026' }) }]),
    );
    const onlyError = await s.run(['coverages', 'apply', 'only-error.json', '--dry-run', '--exit-code']);
    expect(onlyError.exitCode).toBe(1);
    expect(onlyError.stdout).toContain('0 to create, 0 to update, 0 unchanged, 1 in error');
    const r = await s.run(['coverages', 'apply', 'moved.json']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(
      'failed: moved.json record 1 (CBC copay): contract ("ctr_acme_2026" → "ctr_state_2026") ' +
        'is create-only and cannot be changed on coverage cov_acme_cbc',
    );
    expect(((await s.get('/insurance-coverages/cov_acme_cbc')) as { contract: string }).contract).toBe('ctr_acme_2026');
    expect(((await s.get('/insurance-coverages')) as { name: string }[]).map((c) => c.name)).toContain('Other');
  });
});

describe('notifications at a terminal', () => {
  it('filters in the client, newest first, and --unseen needs an account', async () => {
    const s = await server();
    const all = await s.run(['notifications', 'list', '--fields', 'id']);
    expect(JSON.parse(all.stdout).map((n: { id: string }) => n.id)).toEqual([
      'ntf_stock_low',
      'ntf_queue_2',
      'ntf_queue_1',
    ]);
    const code = await s.run(['notifications', 'list', '--code', 'new-queue-item', '--limit', '1', '--fields', 'id']);
    expect(JSON.parse(code.stdout)).toEqual([{ id: 'ntf_queue_2' }]);
    const since = await s.run(['notifications', 'list', '--since', '12h', '--fields', 'id']);
    expect(JSON.parse(since.stdout)).toEqual([{ id: 'ntf_stock_low' }]);
    const noAccount = await s.run(['notifications', 'list', '--unseen']);
    expect(noAccount.exitCode).toBe(2);
    expect(noAccount.stderr).toContain('clinadmin config set account ID');
    await s.run(['config', 'set', 'account', 'acc_support']);
    const unseen = await s.run(['notifications', 'list', '--unseen', '--fields', 'id']);
    expect(JSON.parse(unseen.stdout)).toEqual([{ id: 'ntf_stock_low' }, { id: 'ntf_queue_1' }]);
    const bad = await s.run(['notifications', 'list', '--since', 'yesterday-ish']);
    expect(bad.exitCode).toBe(2);
  });

  it('shows one notification laid out for reading', async () => {
    const s = await server();
    const r = await s.run(['notifications', 'show', 'ntf_queue_1', '-o', 'table']);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('New queue item: collection tubes');
    expect(lines[1]).toBe('warehouse · new-queue-item · ntf_queue_1');
    expect(lines[2]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d \(2 d ago\)$/);
    expect(r.stdout).toContain('A request for 200 EDTA collection tubes is waiting in the warehouse queue.');
    expect(r.stdout).toContain('meta\n  {\n    "queue": "warehouse",');
    expect(r.stdout).toContain('seen by acc_jobs');
  });

  it('watch prints a change made by another process and outlives a server restart', async () => {
    const dir = await tempDir();
    const data = join(dir, 'data.json');
    let s = await serveProcess(['--seed', '--data', data, '--token', TOKEN]);
    const port = new URL(s.url).port;
    const env = { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN, CLINADMIN_CONFIG_DIR: join(dir, 'config') };
    // --verbose traces each poll on stderr: the first answered poll says watch is ready.
    const watch = clinadmin(['notifications', 'watch', '--interval', '0.2', '-o', 'ndjson', '-v'], { env });
    let out = '';
    let err = '';
    watch.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    watch.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    await expect.poll(() => err, { timeout: 10_000 }).toMatch(/← 200 GET \S+\/notifications/);
    expect(out).toBe('');
    const created = await clinadmin(['measures', 'create', '--test', 'tst_x', '--name', 'Watched'], { env });
    expect(created.exitCode).toBe(0);
    await expect.poll(() => out, { timeout: 10_000 }).toContain('"title":"Measure created: Watched"');
    s.proc.kill('SIGTERM');
    await s.proc;
    await expect.poll(() => err, { timeout: 15_000 }).toContain('lost the server');
    // serveProcess passes --port 0 first; the later --port wins, so the server comes back where it was.
    s = await serveProcess(['--data', data, '--port', port, '--token', TOKEN]);
    await expect.poll(() => err, { timeout: 40_000 }).toContain('the server is back; watching again');
    await clinadmin(
      ['coverages', 'create', '--contract', 'ctr_acme_2026', '--name', 'After restart', '--type', 'unknown'],
      { env },
    );
    await expect.poll(() => out, { timeout: 10_000 }).toContain('"title":"Coverage created: After restart"');
    expect(err.match(/lost the server/g)).toHaveLength(1);
    expect(
      out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).code),
    ).toEqual(['measure-created', 'coverage-created']);
    watch.kill('SIGINT');
    expect((await watch).exitCode).toBe(0);
    s.proc.kill('SIGTERM');
    await s.proc;
  }, 90_000);
});
