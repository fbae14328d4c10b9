// Covers: src/core/sync/ src/formats/records.ts src/files/spool.ts src/commands/resource/sync-run.ts
// Covers: src/commands/resource/sync-run.ts src/commands/notifications/watch-run.ts
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
import { coverageOf as cov, measureOf as m } from '../helpers/job-records.js';
import { tempDir } from '../helpers/tmp.js';

// Each job as a process does it: files and stdin, a signal, TMPDIR, a server that restarts, two servers. The
// rules the jobs word and send (errors, plans, repeat runs, filters) are in test/cli/jobs.test.ts, in process.

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
});

describe('coverages apply', () => {
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
});

describe('notifications at a terminal', () => {
  it('watch says a typo in --type once, and --seen-by / --unseen-by filter what arrives', async () => {
    const dir = await tempDir();
    const s = await serveProcess(['--seed', '--data', join(dir, 'data.json'), '--token', TOKEN]);
    const env = { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN, CLINADMIN_CONFIG_DIR: join(dir, 'config') };
    const follow = (args: string[]) => {
      const proc = clinadmin(['notifications', 'watch', '--interval', '0.2', '-o', 'ndjson', '-v', ...args], { env });
      const seen = { out: '', err: '' };
      proc.stdout!.on('data', (d: Buffer) => (seen.out += d.toString()));
      proc.stderr!.on('data', (d: Buffer) => (seen.err += d.toString()));
      return { proc, seen };
    };
    try {
      const typo = follow(['--type', 'wharehouse']);
      const unseen = follow(['--unseen-by', 'acc_support']);
      const seen = follow(['--seen-by', 'acc_support']);
      for (const w of [typo, unseen, seen])
        await expect.poll(() => w.seen.err, { timeout: 10_000 }).toMatch(/← 200 GET \S+\/notifications/);
      // The typo is named once its answers are read (the poll's trace comes first, as it is received).
      await expect
        .poll(() => typo.seen.err, { timeout: 10_000 })
        .toContain('no notifications of type "wharehouse"; types here: warehouse\n');
      expect(unseen.seen.err).not.toContain('no notifications');
      const created = await clinadmin(['measures', 'create', '--test', 'tst_x', '--name', 'Watched'], { env });
      expect(created.exitCode).toBe(0);
      // A new notification is seen by nobody yet: --unseen-by prints it, --seen-by does not.
      await expect.poll(() => unseen.seen.out, { timeout: 10_000 }).toContain('"title":"Measure created: Watched"');
      // The --seen-by watch has polled since (its trace shows a later answer) and printed nothing.
      const polls = (t: string) => t.match(/← 200 GET/g)?.length ?? 0;
      const before = polls(seen.seen.err);
      await expect.poll(() => polls(seen.seen.err), { timeout: 10_000 }).toBeGreaterThan(before + 1);
      expect(seen.seen.out).toBe('');
      expect(typo.seen.err.match(/no notifications of type/g)).toHaveLength(1);
      for (const w of [typo, unseen, seen]) {
        w.proc.kill('SIGINT');
        expect((await w.proc).exitCode).toBe(0);
      }
    } finally {
      s.proc.kill('SIGTERM');
      await s.proc;
    }
  }, 90_000);

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
