// Covers: src/server/service/load-file.ts src/core/load-ages.ts src/server/service/sandbox.ts
// Covers: src/commands/sandbox/sandbox-run.ts
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
import { runShippedAsProcess } from '../helpers/run-shipped.js';
import { tempDir } from '../helpers/tmp.js';

// The whole state in one step: serve --load, sandbox load and sandbox contracts add. serve runs as the built
// binary; the commands that talk to it run the built bundle in process, as only serve's answers are checked.

const TOKEN = 'load-token-5a1c';
const procs: ResultPromise[] = [];
afterEach(async () => {
  for (const p of procs.splice(0)) {
    p.kill('SIGKILL');
    await p.catch(() => undefined);
  }
});

async function serve(args: string[], folder?: string) {
  const dir = folder ?? (await tempDir());
  const s = await serveProcess(['--token', `${TOKEN}:acc_ci:admin`, ...args], { cwd: dir });
  procs.push(s.proc);
  const env = { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN, CLINADMIN_CONFIG_DIR: join(dir, 'config') };
  const run = (a: string[]) => runShippedAsProcess(a, { env, cwd: dir });
  const json = async (a: string[]) => {
    const r = await run([...a, '-o', 'json']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    return JSON.parse(String(r.stdout));
  };
  return { ...s, dir, env, run, json };
}

describe('serve --load', () => {
  it('starts from what coverages list -o json and measures export wrote, adding no notification', async () => {
    const seeded = await serve(['--seed', '--data', 'seeded.json']);
    const coverages = await seeded.json(['coverages', 'list']);
    await writeFile(join(seeded.dir, 'covs.json'), JSON.stringify(coverages));
    const exported = await seeded.run(['measures', 'export', '--out', 'measures.json']);
    expect(exported.exitCode, String(exported.stderr)).toBe(0);
    const measures = JSON.parse(await readFile(join(seeded.dir, 'measures.json'), 'utf8'));

    // The coverages, service-set fields included: the same list, and their contracts derived from them.
    const fromCovs = await serve(['--load', 'covs.json'], seeded.dir);
    expect(fromCovs.stderr()).toContain('loaded covs.json: 0 measures, 3 coverages, 2 contracts, 0 notifications');
    expect(await fromCovs.json(['coverages', 'list'])).toEqual(coverages);
    expect(await fromCovs.json(['notifications', 'list'])).toEqual([]);
    const contracts = await fromCovs.json(['api', 'GET', '/contracts']);
    expect(contracts).toContainEqual({
      id: 'ctr_acme_2026',
      insured: 'org_central_lab',
      insurer: 'org_acme_health',
      insurerType: 'private',
      insurerSubtype: 'hmo',
    });
    // A derived contract takes new coverages, as one on file does.
    const made = await fromCovs.json([
      'coverages',
      'create',
      '--contract',
      'ctr_state_2026',
      '--name',
      'New rule',
      '--type',
      'deduction',
    ]);
    expect(made).toMatchObject({ insurer: 'org_state_plan', insurerType: 'public' });

    // An export has no ids: each record gets one, as a create would, and the export reads back the same.
    const fromExport = await serve(['--load', 'measures.json'], seeded.dir);
    const again = await fromExport.run(['measures', 'export']);
    expect(JSON.parse(String(again.stdout))).toEqual(measures);
    // The loaded state is the one a reset without a name returns to.
    expect(
      (await fromExport.run(['measures', 'delete', (await fromExport.json(['measures', 'list']))[0].id, '--yes']))
        .exitCode,
    ).toBe(0);
    const reset = await fromExport.run(['sandbox', 'reset']);
    expect(reset.exitCode, String(reset.stderr)).toBe(0);
    expect(JSON.parse(String((await fromExport.run(['measures', 'export'])).stdout))).toEqual(measures);
    // Without --data, each ran on a temporary data file of its own, which a clean stop removes.
    for (const s of [fromCovs, fromExport]) {
      s.proc.kill('SIGTERM');
      await s.proc;
      expect(s.stderr()).toContain('stopped; the data was in a temporary file (--load without --data), now removed');
    }
  });

  it('refuses a bad file before it starts, naming the record and the field', async () => {
    const dir = await tempDir();
    const covs = [
      { contract: 'ctr_a', insured: 'org_l', insurer: 'org_i', name: 'Fine', type: 'deduction' },
      {
        id: 'cov_2',
        contract: 'ctr_a',
        insured: 'org_l',
        insurer: 'org_i',
        name: 'Bad',
        type: 'deduction',
        amount: -1,
      },
    ];
    await writeFile(join(dir, 'bad.json'), JSON.stringify(covs));
    const r = await clinadmin(['serve', '--port', '0', '--load', 'bad.json', '--data', 'd.json'], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      'error: bad.json: record 2 (id cov_2): amount: must not be negative; fix the file, then start again',
    );
    await writeFile(join(dir, 'twice.json'), JSON.stringify({ coverages: [covs[0], { ...covs[0] }] }));
    const twice = await clinadmin(['serve', '--port', '0', '--load', 'twice.json', '--data', 'd.json'], { cwd: dir });
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toMatch(
      /^error: twice\.json: coverages record 2: name: a coverage with contract ctr_a and name Fine is also coverages r/,
    );
    expect(twice.stderr).toContain('is also coverages record 1');
    await writeFile(join(dir, 'odd.json'), JSON.stringify({ measures: [], analyzers: [] }));
    const odd = await clinadmin(['serve', '--port', '0', '--load', 'odd.json', '--data', 'd.json'], { cwd: dir });
    expect(odd.stderr).toMatch(/^error: odd\.json: analyzers: unknown key/);
    // Nothing was started or written.
    await expect(readFile(join(dir, 'd.json'))).rejects.toThrow();
  });

  it('with --data, replaces what the file held, says so, and keeps it as snapshot before-load', async () => {
    const dir = await tempDir();
    const first = await serve(['--seed', '--data', 'api.json'], dir);
    first.proc.kill('SIGTERM');
    await first.proc;
    await writeFile(
      join(dir, 'state.json'),
      JSON.stringify({
        contracts: [{ id: 'ctr_globex_2027', insured: 'org_lab', insurer: 'org_globex' }],
        insuranceCoverages: [{ contract: 'ctr_globex_2027', name: 'Copay', type: 'deduction', amount: 5 }],
      }),
    );
    const s = await serve(['--data', 'api.json', '--load', 'state.json'], dir);
    expect(s.stderr()).toContain(
      'loaded state.json: 0 measures, 1 coverage, 1 contract, 0 notifications; it replaced what ' +
        `${join(dir, 'api.json')} held (6 measures, 3 coverages, 2 contracts, 3 notifications), ` +
        'kept as snapshot before-load',
    );
    expect((await s.json(['coverages', 'list'])).map((c: { name: string }) => c.name)).toEqual(['Copay']);
    expect(await s.json(['coverages', 'list'])).toMatchObject([
      { insured: 'org_lab', insurer: 'org_globex', createdBy: 'acc_ci' },
    ]);
    expect((await s.run(['sandbox', 'reset', 'before-load'])).exitCode).toBe(0);
    expect(await s.json(['measures', 'list'])).toHaveLength(6);
  });
});

describe('sandbox load and sandbox contracts add', () => {
  it('replaces the state of a running server, or merges by id and natural key', async () => {
    const s = await serve(['--seed', '--data', 'api.json']);
    await writeFile(
      join(s.dir, 'covs.json'),
      JSON.stringify([
        { contract: 'ctr_acme_2026', name: 'CBC copay', type: 'deduction', amount: 99 },
        { contract: 'ctr_acme_2026', name: 'Brand new', type: 'override', percentage: 10 },
      ]),
    );
    const before = await s.json(['coverages', 'list']);
    const merged = await s.run(['sandbox', 'load', 'covs.json', '--merge']);
    expect(merged.exitCode, String(merged.stderr)).toBe(0);
    expect(String(merged.stderr)).toBe(
      'merged covs.json: the server holds 6 measures, 4 coverages, 3 notifications, 2 contracts',
    );
    const after = await s.json(['coverages', 'list']);
    // CBC copay is replaced in place, keeping its id; Brand new is added; the third is untouched.
    expect(after).toHaveLength(4);
    const cbc = after.find((c: { name: string }) => c.name === 'CBC copay');
    expect(cbc).toMatchObject({ id: before[0].id, amount: 99, insurer: 'org_acme_health' });
    expect(after[2]).toEqual(before[2]);
    // No notification: a load is not the service's change.
    expect(await s.json(['notifications', 'list'])).toHaveLength(3);

    // A replace needs the contracts its coverages name: in the file, or derived from insured and insurer.
    const refused = await s.run(['sandbox', 'load', 'covs.json']);
    expect(refused.exitCode).toBe(1);
    expect(String(refused.stderr)).toContain(
      "(400): the state cannot be loaded: record 1: contract: ctr_acme_2026 is not among the file's contracts",
    );
    await writeFile(
      join(s.dir, 'covs.json'),
      JSON.stringify([
        { contract: 'ctr_x', insured: 'org_l', insurer: 'org_i', name: 'CBC copay', type: 'deduction' },
        { contract: 'ctr_x', insured: 'org_l', insurer: 'org_i', name: 'Other', type: 'deduction' },
      ]),
    );
    const replaced = await s.run(['sandbox', 'load', 'covs.json', '-q']);
    expect(replaced.exitCode, String(replaced.stderr)).toBe(0);
    expect(String(replaced.stderr)).toBe('');
    expect(JSON.parse(String(replaced.stdout))).toEqual({
      merge: false,
      measures: 0,
      coverages: 2,
      notifications: 0,
      contracts: 1,
    });
    expect(await s.json(['api', 'GET', '/contracts'])).toEqual([{ id: 'ctr_x', insured: 'org_l', insurer: 'org_i' }]);
  });

  it('takes a name again after a reset or load dropped the record that had it', async () => {
    const s = await serve(['--seed', '--data', 'api.json']);
    expect((await s.run(['sandbox', 'snapshot', 'seeded', '-q'])).exitCode).toBe(0);
    const create = ['coverages', 'create', '--contract', 'ctr_acme_2026', '--name', 'Extra', '--type', 'deduction'];
    expect((await s.run(create)).exitCode).toBe(0);
    expect((await s.run(['sandbox', 'reset', 'seeded', '-q'])).exitCode).toBe(0);
    const again = await s.run(create);
    expect(again.exitCode, String(again.stderr)).toBe(0);
  });

  it('refuses a bad record with 400 naming it, and changes nothing', async () => {
    const s = await serve(['--seed', '--data', 'api.json']);
    await writeFile(join(s.dir, 'bad.json'), JSON.stringify({ measures: [{ test: 't', name: 'A', type: 'nope' }] }));
    const r = await s.run(['sandbox', 'load', 'bad.json']);
    expect(r.exitCode).toBe(1);
    expect(String(r.stderr)).toMatch(
      /\(400\): the state cannot be loaded: measures record 1: type: must be one of: numeric, /,
    );
    expect(await s.json(['measures', 'list'])).toHaveLength(6);
  });

  it('adds a contract while serve runs, so coverages for it can be created', async () => {
    const s = await serve(['--seed', '--data', 'api.json']);
    const create = ['coverages', 'create', '--contract', 'ctr_globex_2027', '--name', 'Copay', '--type', 'deduction'];
    const refused = await s.run(create);
    expect(refused.exitCode).toBe(1);
    expect(String(refused.stderr)).toContain('ctr_globex_2027 is not on file');
    const add = ['sandbox', 'contracts', 'add', 'ctr_globex_2027', '--insured', 'org_lab', '--insurer', 'org_globex'];
    const added = await s.run([...add, '--insurer-type', 'private']);
    expect(added.exitCode, String(added.stderr)).toBe(0);
    // The same contract again changes nothing; other values for its id are a conflict.
    expect((await s.run([...add, '--insurer-type', 'private'])).exitCode).toBe(0);
    const clash = await s.run([...add, '--insurer-type', 'public']);
    expect(clash.exitCode).toBe(1);
    expect(String(clash.stderr)).toContain('(409)');
    expect(await s.json(create)).toMatchObject({ insured: 'org_lab', insurer: 'org_globex', insurerType: 'private' });
  });
});
