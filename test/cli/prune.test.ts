// Covers: src/core/sync/prune.ts src/commands/resource/sync-run.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

// --prune: within the contracts (or tests) a file names, the server ends as the file says.
// The seed holds cov_acme_cbc and cov_acme_bmp on ctr_acme_2026, cov_state_tubes on ctr_state_2026.

const ENTER = '\r';

async function setup(records: unknown[], file = 'c.json') {
  const server = await testServer({ seed: true });
  const dir = await tempDir();
  await writeFile(join(dir, file), JSON.stringify(records));
  const env = cliEnv(server.url, dir);
  const names = async (path: string) =>
    ((await server.call('GET', path)).body as { id: string; name: string; contract?: string; test?: string }[])
      .map((r) => `${r.contract ?? r.test}/${r.name}`)
      .sort();
  return { server, dir, env, names };
}

const acme = [
  { contract: 'ctr_acme_2026', name: 'CBC copay', type: 'deduction', paymentMethod: 'postpaid', amount: 20 },
  { contract: 'ctr_acme_2026', name: 'Lipids', type: 'override', percentage: 50 },
];

describe('coverages apply --prune', () => {
  it('refuses without --yes when no one is at the terminal, before sending anything', async () => {
    const { server, dir, env, names } = await setup(acme);
    const before = await names('/insurance-coverages');
    const r = await runCli(['coverages', 'apply', 'c.json', '--prune'], { env, cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('refusing to --prune without --yes: no terminal to confirm the deletions at');
    expect(await names('/insurance-coverages')).toEqual(before);
    expect((await server.call('GET', '/insurance-coverages/cov_acme_cbc')).body.amount).toBe(15);
  });

  it('--dry-run lists the deletions in the plan, as text and as JSON, and changes nothing', async () => {
    const { dir, env, names } = await setup(acme);
    const before = await names('/insurance-coverages');
    const text = await runCli(['coverages', 'apply', 'c.json', '--prune', '--dry-run', '-o', 'table'], {
      env,
      cwd: dir,
    });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('- delete     cov_acme_bmp (contract ctr_acme_2026 and name BMP coverage)');
    expect(text.stdout).not.toContain('cov_state_tubes');
    expect(text.stdout).toContain('dry run: 1 to create, 1 to update, 1 to delete, 0 unchanged, 0 in error');
    const json = await runCli(['coverages', 'apply', 'c.json', '--prune', '--dry-run', '-o', 'json'], {
      env,
      cwd: dir,
    });
    const plan = JSON.parse(json.stdout);
    expect(plan).toMatchObject({ dryRun: true, create: 1, update: 1, delete: 1 });
    expect(plan.records).toContainEqual({ name: 'BMP coverage', action: 'delete', id: 'cov_acme_bmp' });
    expect(await names('/insurance-coverages')).toEqual(before);
    // Drift detection counts a deletion as a change.
    const drift = await runCli(['coverages', 'apply', 'c.json', '--prune', '--dry-run', '--exit-code'], {
      env,
      cwd: dir,
    });
    expect(drift.code).toBe(1);
  });

  it('--yes leaves each named contract exactly as the file says and never touches another', async () => {
    const { dir, env, names } = await setup(acme);
    const r = await runCli(['coverages', 'apply', 'c.json', '--prune', '--yes'], { env, cwd: dir });
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ created: 1, updated: 1, deleted: 1, failed: 0 });
    expect(summary.records).toContainEqual({ name: 'BMP coverage', outcome: 'deleted', id: 'cov_acme_bmp' });
    expect(await names('/insurance-coverages')).toEqual([
      'ctr_acme_2026/CBC copay',
      'ctr_acme_2026/Lipids',
      'ctr_state_2026/Collection tubes',
    ]);
    // Run again: nothing left to do.
    const again = await runCli(['coverages', 'apply', 'c.json', '--prune', '--yes', '-o', 'table'], {
      env,
      cwd: dir,
    });
    expect(again.stdout).toMatch(/^0 created, 0 updated, 2 unchanged, 0 deleted, 0 failed in /);
  });

  it('at a terminal lists the deletions and asks once for all; no sends nothing', async () => {
    const { server, dir, env, names } = await setup([
      ...acme,
      { contract: 'ctr_state_2026', name: 'X', type: 'unknown' },
    ]);
    const before = await names('/insurance-coverages');
    const no = await runCli(['coverages', 'apply', 'c.json', '--prune'], {
      env,
      cwd: dir,
      interactive: true,
      keys: ['n', ENTER],
    });
    expect(no.stderr).toContain('- delete     cov_acme_bmp (contract ctr_acme_2026 and name BMP coverage)');
    expect(no.stderr).toContain('- delete     cov_state_tubes (contract ctr_state_2026 and name Collection tubes)');
    expect(no.stderr).toContain(
      `Delete 2 coverages of the contracts in the file that it does not list, on ${server.url}?`,
    );
    expect(no.code).toBe(2);
    expect(await names('/insurance-coverages')).toEqual(before);
    const yes = await runCli(['coverages', 'apply', 'c.json', '--prune'], {
      env,
      cwd: dir,
      interactive: true,
      keys: ['y', ENTER],
    });
    expect(yes.code).toBe(0);
    // One question for all the deletions (inquirer redraws it as keys are typed), never one a record.
    expect(new Set(yes.stderr.match(/Delete [^?]*\?/g))).toEqual(
      new Set([`Delete 2 coverages of the contracts in the file that it does not list, on ${server.url}?`]),
    );
    expect(await names('/insurance-coverages')).toEqual([
      'ctr_acme_2026/CBC copay',
      'ctr_acme_2026/Lipids',
      'ctr_state_2026/X',
    ]);
  });
});

describe('measures import --prune', () => {
  it('deletes the measures of the tests the file names that it does not list; other tests stay', async () => {
    const hgb = {
      test: 'tst_cbc',
      name: 'Hemoglobin',
      type: 'numeric',
      unit: 'g/dL',
      referenceRanges: [{ min: 12, max: 17.5 }],
    };
    const { dir, env, names } = await setup([hgb], 'm.json');
    const before = (await names('/diagnostic-measures')).filter((n) => !n.startsWith('tst_cbc/'));
    const r = await runCli(['measures', 'import', 'm.json', '--prune', '--yes', '-o', 'table'], { env, cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^0 created, 1 updated, 0 unchanged, 1 deleted, 0 failed in /);
    expect(await names('/diagnostic-measures')).toEqual(['tst_cbc/Hemoglobin', ...before].sort());
  });

  it('--dry-run --exit-code exits 1 while the server differs from the file, 0 once it holds it', async () => {
    const hgb = { test: 'tst_cbc', name: 'Hemoglobin', type: 'numeric', unit: 'g/dL' };
    const { dir, env } = await setup([hgb], 'm.json');
    const drift = await runCli(['measures', 'import', 'm.json', '--dry-run', '--exit-code', '--prune'], {
      env,
      cwd: dir,
    });
    expect(drift.code, drift.stderr).toBe(1);
    expect((await runCli(['measures', 'import', 'm.json', '--prune', '--yes'], { env, cwd: dir })).code).toBe(0);
    const same = await runCli(['measures', 'import', 'm.json', '--dry-run', '--exit-code', '--prune', '-o', 'json'], {
      env,
      cwd: dir,
    });
    expect(same.code, same.stderr).toBe(0);
    expect(JSON.parse(same.stdout)).toMatchObject({ dryRun: true, create: 0, update: 0, delete: 0 });
  });
});
