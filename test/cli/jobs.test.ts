// Covers: src/commands/measures/import.ts src/commands/resource/sync-run.ts
// Covers: src/core/sync/ src/commands/coverages/apply.ts src/commands/resource/sync-run.ts
// Covers: src/commands/notifications/list-run.ts src/commands/notifications/show-run.ts src/formats/json/json-text.ts
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coverageOf as cov, measureOf as m } from '../helpers/job-records.js';
import { runShipped } from '../helpers/run-shipped.js';
import { ACCOUNT, cliEnv, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

// The rules of the three jobs, each worded as a user reads it: the built CLI in process against the real
// server (runShipped), as what is checked here is what the job says and sends, not how a process starts or
// stops; test/system/binary.test.ts runs this file against the single executable. The jobs run as
// processes in test/e2e/jobs.test.ts.

/** The real server (seeded unless told), and the built CLI from a folder of its own. */
async function server(options: Parameters<typeof testServer>[0] = { seed: true }) {
  const s = await testServer(options);
  const dir = await tempDir();
  const env = cliEnv(s.url, dir);
  const get = async (path: string) => (await s.call('GET', path)).body;
  return { url: s.url, dir, run: (args: string[]) => runShipped(args, { env, cwd: dir }), get };
}

describe('measures import', () => {
  it('names file, line and column of a syntax error, and file, record, name and field of a bad record', async () => {
    const s = await server();
    const before = { m: await s.get('/diagnostic-measures'), n: await s.get('/notifications') };
    await writeFile(join(s.dir, 'syntax.json'), '[\n  {"test": "t", "name": "ok"},\n  {"test": "t" "name": "x"}\n]');
    const syntax = await s.run(['measures', 'import', 'syntax.json']);
    expect(syntax.code).toBe(2);
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
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('error: 2 invalid records; nothing was sent');
    expect(invalid.stderr).toContain(
      '  - invalid.json record 2 (Reversed): referenceRanges[1].max: min (9) must not be greater than max (3)',
    );
    expect(invalid.stderr).toContain('  - invalid.json record 3 (No test): test: is required');
    const dup = await s.run(['measures', 'import', 'good.json', 'good.json']);
    expect(dup.code).toBe(2);
    expect(dup.stderr).toContain(
      'good.json record 1 (Fine): the same test tst_lipid and name Fine as good.json record 1 (Fine)',
    );
    expect({ m: await s.get('/diagnostic-measures'), n: await s.get('/notifications') }).toEqual(before);
  });

  it('is repeatable: the second run creates nothing, and a changed record updates only what differs', async () => {
    const s = await server({});
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
    expect(dry.code).toBe(0);
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
    const s = await server({});
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
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ created: 3, updated: 0, unchanged: 0, failed: 0 });
    const stored = await s.get('/diagnostic-measures');
    const again = await s.run(['measures', 'import', 'catalog.csv', '-o', 'json', '--verbose']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, updated: 0, unchanged: 3, failed: 0 });
    // One read of the list, equal by its digests: no write, and no second read for whole records.
    expect(again.stderr.match(/^→ \S+ \S+/gm)).toEqual([`→ GET ${s.url}/diagnostic-measures`]);
    expect(await s.get('/diagnostic-measures')).toEqual(stored);
  });

  it('lets the other records through when one fails on the server, lists the failure and exits 1', async () => {
    const s = await server({ maxBody: 3000 });
    const records = [m('One'), m('Too big', { description: 'x'.repeat(5000) }), m('Three')];
    await writeFile(join(s.dir, 'mixed.json'), JSON.stringify(records));
    const r = await s.run(['measures', 'import', 'mixed.json', '--concurrency', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      'failed: mixed.json record 2 (Too big): the API refused POST /diagnostic-measures (413): ' +
        'the body is larger than the limit of 3000 bytes',
    );
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 2, failed: 1 });
    expect(((await s.get('/diagnostic-measures')) as { name: string }[]).map((x) => x.name)).toEqual(['One', 'Three']);
  });

  it('warns about clinical sense, and --strict makes warnings errors', async () => {
    const s = await server({});
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
    expect(r.code).toBe(0);
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
    // The female band has no ages, so the measure's span is every age: male is uncovered below 18 y and from
    // 120 y (ageMax 120 is the first age past).
    expect(w).toContain('referenceRanges[0]: ages 0–17 y are not covered for sex male');
    expect(w).toContain('referenceRanges[1]: ages from 120 y are not covered for sex male');
    // The summary has the shape of import's: the counts, then each record with what was found.
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ checked: 1, clean: 0, withWarnings: 1 });
    expect(summary.records[0]).toMatchObject({ source: 'k.json', position: 1, name: 'Potassium', outcome: 'warnings' });
    expect(summary.records[0].warnings).toHaveLength(8);
    const sentence = await s.run(['measures', 'lint', 'k.json', '-o', 'table']);
    expect(sentence.stdout).toBe('1 checked, 0 clean, 1 with warnings (8 warnings)\n');
    expect((await s.run(['measures', 'lint', 'k.json', '--strict'])).code).toBe(1);
    const strict = await s.run(['measures', 'import', 'k.json', '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain('(an error with --strict)');
    expect(await s.get('/diagnostic-measures')).toEqual([]);
    const loose = await s.run(['measures', 'import', 'k.json']);
    expect(loose.code).toBe(0);
    expect(loose.stderr).toContain('warning:');
  });
});

describe('coverages apply', () => {
  it('reports a change to the create-only contract as an error for that record, applying the rest', async () => {
    const s = await server();
    await writeFile(
      join(s.dir, 'moved.json'),
      JSON.stringify([{ id: 'cov_acme_cbc', ...cov('CBC copay', { contract: 'ctr_state_2026' }) }, cov('Other')]),
    );
    // A dry run exits as the real run will: 1 for the record in error, with or without --exit-code.
    for (const flags of [['--dry-run'], ['--dry-run', '--exit-code']]) {
      const dry = await s.run(['coverages', 'apply', 'moved.json', ...flags]);
      expect(dry.code, flags.join(' ')).toBe(1);
      expect(dry.stdout).toContain('dry run: 1 to create, 0 to update, 0 unchanged, 1 in error; nothing was sent');
    }
    await writeFile(
      join(s.dir, 'only-error.json'),
      JSON.stringify([{ id: 'cov_acme_cbc', ...cov('CBC copay', { contract: 'ctr_state_2026' }) }]),
    );
    const onlyError = await s.run(['coverages', 'apply', 'only-error.json', '--dry-run', '--exit-code']);
    expect(onlyError.code).toBe(1);
    expect(onlyError.stdout).toContain('0 to create, 0 to update, 0 unchanged, 1 in error');
    const r = await s.run(['coverages', 'apply', 'moved.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'failed: moved.json record 1 (CBC copay): contract ("ctr_acme_2026" → "ctr_state_2026") ' +
        'is create-only and cannot be changed on coverage cov_acme_cbc',
    );
    expect(((await s.get('/insurance-coverages/cov_acme_cbc')) as { contract: string }).contract).toBe('ctr_acme_2026');
    expect(((await s.get('/insurance-coverages')) as { name: string }[]).map((c) => c.name)).toContain('Other');
  });
});

describe('notifications', () => {
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
    expect(noAccount.code).toBe(2);
    expect(noAccount.stderr).toContain('clinadmin config set account ID');
    await s.run(['config', 'set', 'account', 'acc_support']);
    const unseen = await s.run(['notifications', 'list', '--unseen', '--fields', 'id']);
    expect(JSON.parse(unseen.stdout)).toEqual([{ id: 'ntf_stock_low' }, { id: 'ntf_queue_1' }]);
    const bad = await s.run(['notifications', 'list', '--since', 'yesterday-ish']);
    expect(bad.code).toBe(2);
  });

  it('shows one notification laid out for reading', async () => {
    const s = await server();
    const r = await s.run(['notifications', 'show', 'ntf_queue_1', '-o', 'table']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('New queue item: collection tubes');
    expect(lines[1]).toBe('warehouse · new-queue-item · ntf_queue_1');
    expect(lines[2]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d \(2 d ago\)$/);
    expect(r.stdout).toContain('A request for 200 EDTA collection tubes is waiting in the warehouse queue.');
    // Meta as browse shows it, `key: value` a line (issue 64).
    expect(r.stdout).toContain('meta\n  queue: warehouse\n  item: isc_tubes\n  quantity: 200\n');
    expect(r.stdout).toContain(`seen by ${ACCOUNT}`);
  });
});
