import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BIN, clinadmin } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

// docs/ci.md's "Using serve in CI" job, run as written: each `run` step in bash -e, as GitHub Actions
// runs it, with GITHUB_ENV carried from step to step. Installing the package and the user's own tests
// are the steps left out; `clinadmin` is the built binary, and the app under test is curl.

interface Step {
  name?: string;
  run?: string;
  uses?: string;
}

async function documentedJob(): Promise<{ env: Record<string, string>; steps: Step[] }> {
  const page = await readFile(new URL('../../docs/ci.md', import.meta.url), 'utf8');
  const section = page.split('## Using serve in CI')[1];
  const yaml = /```yaml\n([\s\S]*?)```/.exec(section ?? '')?.[1];
  if (!yaml) throw new Error('docs/ci.md has no job under "Using serve in CI"');
  return parse(yaml).jobs.rehearse;
}

let serverPid: number | undefined;
afterEach(() => {
  if (serverPid) {
    try {
      process.kill(serverPid, 'SIGKILL');
    } catch {}
  }
  serverPid = undefined;
});

describe("docs/ci.md's CI job", () => {
  it('starts serve from a loaded state through its ready file, seeds, checks what the app sent, stops', async () => {
    const job = await documentedJob();
    const dir = await tempDir();
    const runner = join(dir, 'runner');
    const work = join(dir, 'work');
    const bin = join(dir, 'bin');
    await Promise.all([mkdir(runner), mkdir(join(work, 'seed'), { recursive: true }), mkdir(bin)]);
    await writeFile(join(bin, 'clinadmin'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    await chmod(join(bin, 'clinadmin'), 0o755);
    const seed = [
      { contract: 'ctr_acme_2026', name: 'CBC copay', type: 'deduction', amount: 10 },
      { contract: 'ctr_acme_2026', name: 'Lipid panel', type: 'override', percentage: 70 },
    ];
    await writeFile(join(work, 'seed', 'coverages.json'), JSON.stringify(seed));
    // The state the job starts from: two contracts and their coverages, as a data file holds them.
    const org = { insured: 'org_central_lab' };
    const state = {
      contracts: [
        { id: 'ctr_acme_2026', ...org, insurer: 'org_acme_health', insurerType: 'private' },
        { id: 'ctr_state_2026', ...org, insurer: 'org_state_plan', insurerType: 'public' },
      ],
      insuranceCoverages: [
        { contract: 'ctr_acme_2026', name: 'CBC copay', type: 'deduction', amount: 15 },
        { contract: 'ctr_acme_2026', name: 'BMP coverage', type: 'override', percentage: 80 },
        { contract: 'ctr_state_2026', name: 'Collection tubes', type: 'deduction', amount: 2 },
      ],
    };
    await writeFile(join(work, 'seed', 'state.json'), JSON.stringify(state));
    const githubEnv = join(runner, 'github-env');
    await writeFile(githubEnv, '');
    const carried = async () =>
      Object.fromEntries(
        (await readFile(githubEnv, 'utf8'))
          .split('\n')
          .filter(Boolean)
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
    const baseEnv = {
      ...job.env,
      PATH: `${bin}:${process.env.PATH}`,
      RUNNER_TEMP: runner,
      GITHUB_ENV: githubEnv,
      CLINADMIN_CONFIG_DIR: join(dir, 'config'),
      NO_COLOR: '1',
    };

    const skipped: string[] = [];
    const outputs: Record<string, string> = {};
    for (const step of job.steps) {
      if (!step.run) continue;
      if (/^npm /.test(step.run)) {
        skipped.push(step.run.split('#')[0].trim());
        // The app under test, with its own token: it reads the coverages and creates one for the new
        // contract, which the reset between two test steps then undoes.
        if (step.run.startsWith('npm test')) {
          const { CLINADMIN_BASE_URL } = await carried();
          const app = (args: string[]) =>
            execa('curl', ['-fsS', '--max-time', '5', '-H', `authorization: Bearer ${job.env.APP_TOKEN}`, ...args], {
              reject: false,
            });
          expect((await app([`${CLINADMIN_BASE_URL}/insurance-coverages`])).exitCode).toBe(0);
          const body = { contract: 'ctr_globex_2027', name: 'Globex copay', type: 'deduction', amount: 12 };
          const made = await app([
            '-H',
            'content-type: application/json',
            '-d',
            JSON.stringify(body),
            `${CLINADMIN_BASE_URL}/insurance-coverages`,
          ]);
          expect(made.exitCode, made.stderr).toBe(0);
          expect(JSON.parse(made.stdout)).toMatchObject({ insurer: 'org_globex', createdBy: 'acc_app' });
        }
        continue;
      }
      const env = { ...baseEnv, ...(await carried()) };
      const r = await execa('bash', ['-e', '-o', 'pipefail', '-c', step.run], {
        cwd: work,
        env,
        extendEnv: false,
        reject: false,
        timeout: 60_000,
      });
      expect(r.exitCode, `${step.name ?? step.run}\n${r.stdout}\n${r.stderr}`).toBe(0);
      outputs[step.name ?? step.run] = r.stdout;
      serverPid = Number((await carried()).SERVE_PID) || undefined;
      if (/^Seed/.test(step.name ?? '')) {
        // What `npm test` would meet: the contract holds exactly the file's coverages; others stay.
        const { CLINADMIN_BASE_URL } = await carried();
        expect(CLINADMIN_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        const list = await clinadmin(['coverages', 'list', '-o', 'json'], { env: { ...env, CLINADMIN_BASE_URL } });
        const held = JSON.parse(list.stdout).map((c: { contract: string; name: string }) => `${c.contract}/${c.name}`);
        expect(held.sort()).toEqual([
          'ctr_acme_2026/CBC copay',
          'ctr_acme_2026/Lipid panel',
          'ctr_state_2026/Collection tubes',
        ]);
      }
    }
    expect(skipped).toEqual(['npm install -g ./vendor/clinadmin-0.1.0.tgz', 'npm test', 'npm run test:e2e']);
    const names = Object.keys(outputs);
    expect(names).toHaveLength(8);
    // Started from the ready file alone: nothing printed, the URL carried on.
    expect(outputs[names[0]]).toBe('');
    // The contract added, described.
    expect(outputs[names[1]]).toMatch(/^ctr_globex_2027\nID:\s+ctr_globex_2027\n/);
    expect(outputs[names[1]]).toMatch(/^Insurer:\s+org_globex$/m);
    expect(outputs[names[2]]).toMatch(/^1 created, 1 updated, 0 unchanged, 1 deleted, 0 failed in /);
    // The seed created one coverage: the journal's one POST, in a table.
    expect(outputs[names[3]]).toMatch(
      /^TIME\s+METHOD\s+PATH\s+QUERY\s+STATUS\s+ACCOUNT\s+MS\n.*POST\s+\/insurance-coverages\s+200\s+acc_ci/,
    );
    // The snapshot, the clear and the mark, all quiet.
    expect(outputs[names[4]]).toBe('');
    // Since the mark, one POST by the app with that body: the seed's POST was cleared, and CI sent nothing.
    // Then none by CI's account: the empty list.
    const sent = outputs[names[5]].split('\n');
    expect(sent).toHaveLength(3);
    expect(sent[1]).toMatch(/POST\s+\/insurance-coverages\s+200\s+acc_app/);
    expect(sent[2]).toBe('[]');
    // Stopped by SIGTERM: the process is gone and the data file holds the seeded coverages on its own.
    expect(outputs[names[7]]).toMatch(/SIGTERM: finishing requests in flight \(at most 10 s\) and saving/);
    const data = JSON.parse(await readFile(join(runner, 'api.json'), 'utf8'));
    expect(data.insuranceCoverages.map((c: { name: string }) => c.name).sort()).toEqual([
      'CBC copay',
      'Collection tubes',
      'Lipid panel',
    ]);
  });
});
