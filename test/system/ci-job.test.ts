// Covers: docs/ci.md src/commands/sandbox/request-log-check.ts src/server/http/near-miss.ts src/server/ready-file.ts
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
  if?: string;
}

/** What one step did. */
interface Ran {
  name: string;
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** A job's variation: a step's script changed (a typo, a flag), or the app under test doing something else. */
interface Variation {
  edit?: (name: string, run: string) => string;
  app?: App;
  /** The next tests, after the reset (`npm run test:e2e`). */
  next?: App;
}

/** A step of the app's tests: curl with the app's token, and the CLI with CI's, as a test file would use. */
type App = (
  url: string,
  send: (args: string[], token?: string) => ReturnType<typeof execa>,
  cli: (args: string[]) => ReturnType<typeof execa>,
) => Promise<void>;

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

/** A seed file as docs/ci.md shows it: the JSON block after the sentence that names it. */
async function documentedFile(name: string): Promise<string> {
  const page = await readFile(new URL('../../docs/ci.md', import.meta.url), 'utf8');
  const section = page.split('## Using serve in CI')[1] ?? '';
  const after = section.split(`\`${name}\`,`)[1] ?? '';
  const block = /```json\n([\s\S]*?)```/.exec(after)?.[1];
  if (!block) throw new Error(`docs/ci.md shows no ${name}`);
  return block;
}

/** The app under test, with its own token: it reads the coverages and creates one for the new contract. */
async function theApp(url: string, send: (args: string[], token?: string) => ReturnType<typeof execa>) {
  expect((await send([`${url}/insurance-coverages`])).exitCode).toBe(0);
  const body = { contract: 'ctr_globex_2027', name: 'Globex copay', type: 'deduction', amount: 12 };
  const made = await send([
    '-H',
    'content-type: application/json',
    '-d',
    JSON.stringify(body),
    `${url}/insurance-coverages`,
  ]);
  expect(made.exitCode, String(made.stderr)).toBe(0);
  expect(JSON.parse(String(made.stdout))).toMatchObject({ insurer: 'org_globex', createdBy: 'acc_app' });
}

/**
 * Runs the documented job as GitHub Actions would: each `run` step in bash -e, GITHUB_ENV carried on, the
 * steps after a failed one skipped but for those marked `if: always()`. Returns what each step that ran did.
 */
async function runJob(variation: Variation = {}) {
  const job = await documentedJob();
  const dir = await tempDir();
  const runner = join(dir, 'runner');
  const work = join(dir, 'work');
  const bin = join(dir, 'bin');
  await Promise.all([mkdir(runner), mkdir(join(work, 'seed'), { recursive: true }), mkdir(bin)]);
  await writeFile(join(bin, 'clinadmin'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  await chmod(join(bin, 'clinadmin'), 0o755);
  for (const name of ['seed/coverages.json', 'seed/state.json'])
    await writeFile(join(work, name), await documentedFile(name));
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
  const ran: Ran[] = [];
  let failed = false;
  for (const step of job.steps) {
    // As GitHub Actions: a step runs while all went well, `if: failure()` only after a failure, `always()` both.
    const when = step.if ?? 'success()';
    if (!step.run || (when === 'success()' && failed) || (when === 'failure()' && !failed)) continue;
    const name = step.name ?? step.run;
    if (/^npm /.test(step.run)) {
      skipped.push(step.run.split('#')[0].trim());
      // The app under test; the reset between two test steps then undoes what it made.
      const tests = step.run.startsWith('npm test') ? (variation.app ?? theApp) : variation.next;
      if (tests && /^npm (test|run test:e2e)/.test(step.run)) {
        const { CLINADMIN_BASE_URL } = await carried();
        const curl = ['-sS', '--fail-with-body', '--max-time', '5'];
        const send = (args: string[], token = job.env.APP_TOKEN) =>
          execa('curl', [...curl, '-H', `authorization: Bearer ${token}`, ...args], { reject: false });
        const cli = (args: string[]) =>
          execa('clinadmin', args, { env: { ...baseEnv, CLINADMIN_BASE_URL }, extendEnv: false, reject: false });
        await tests(CLINADMIN_BASE_URL, send, cli);
      }
      continue;
    }
    const env = { ...baseEnv, ...(await carried()) };
    const script = variation.edit ? variation.edit(name, step.run) : step.run;
    const r = await execa('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd: work,
      env,
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    ran.push({ name, exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) });
    failed ||= r.exitCode !== 0;
    serverPid = Number((await carried()).SERVE_PID) || undefined;
    if (/^Seed/.test(name) && !failed) {
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
  return { ran, skipped, runner };
}

/** The first step that failed, and the one it should be. */
const firstFailed = (ran: Ran[]) => ran.find((r) => r.exitCode !== 0);

describe("docs/ci.md's CI job", () => {
  it('starts serve from a loaded state through its ready file, seeds, checks what the app sent, stops', async () => {
    const { ran, skipped, runner } = await runJob();
    for (const r of ran) expect(r.exitCode, `${r.name}\n${r.stdout}\n${r.stderr}`).toBe(0);
    expect(skipped).toEqual(['npm install -g ./vendor/clinadmin-0.1.0.tgz', 'npm test', 'npm run test:e2e']);
    const outputs = Object.fromEntries(ran.map((r) => [r.name, r.stdout]));
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

  it('fails at the check when its account is a typo, naming the account meant', async () => {
    const { ran } = await runJob({ edit: (_n, run) => run.replace('--account acc_ci ', '--account acc_cii ') });
    const failed = firstFailed(ran);
    expect(failed?.name).toMatch(/^Check exactly what the app sent/);
    expect(failed?.exitCode).toBe(3);
    expect(failed?.stderr).toMatch(/no token of the server has the account acc_cii[\s\S]*did you mean acc_ci\?/);
    expect(ran.at(-1)?.name).toMatch(/^Stop the server/);
  }, 120_000);

  it('fails at the check when the journal dropped requests of the window, naming the limit', async () => {
    const { ran } = await runJob({
      edit: (name, run) =>
        name.startsWith('Start') ? run.replace('--record-bodies', '--record-bodies --journal-requests 1') : run,
    });
    // The seed's own check is the first to count over a window the journal cannot hold.
    const failed = firstFailed(ran);
    expect(failed?.name).toMatch(/^Check what the seed sent/);
    expect(failed?.stderr).toMatch(
      /the request journal dropped \d+ requests since the journal was last cleared \(it keeps --journal-requests 1\)/,
    );
  }, 120_000);

  it('fails at the check when the app sent its request without a valid token, and says so', async () => {
    const { ran } = await runJob({
      app: async (url, send) => {
        const body = { contract: 'ctr_globex_2027', name: 'Globex copay', type: 'deduction', amount: 12 };
        const args = ['-H', 'content-type: application/json', '-d', JSON.stringify(body), `${url}/insurance-coverages`];
        expect((await send(args, 'stale-token')).exitCode).not.toBe(0);
      },
    });
    const failed = firstFailed(ran);
    expect(failed?.name).toMatch(/^Check exactly what the app sent/);
    expect(failed?.stderr).toMatch(
      /found 0\n1 request without a valid token \(401 or 403\) in the window is not counted/,
    );
  }, 120_000);

  it("fails at the check when the server refused the app's POST, showing it as the near miss", async () => {
    const { ran } = await runJob({
      app: async (url, send) => {
        // A contract the server does not hold: 422, and the body kept as it was sent.
        const body = { contract: 'ctr_globex_2026', name: 'Globex copay', type: 'deduction', amount: 12 };
        const args = ['-H', 'content-type: application/json', '-d', JSON.stringify(body), `${url}/insurance-coverages`];
        expect((await send(args)).exitCode).not.toBe(0);
      },
    });
    const failed = firstFailed(ran);
    expect(failed?.name).toMatch(/^Check exactly what the app sent/);
    expect(failed?.stderr).toMatch(/expected 1 request matching POST \/insurance-coverages .*status 200.*, found 0/);
    // The near miss: the app's POST, refused, with the field its body got wrong.
    expect(failed?.stderr).toContain(
      '  POST /insurance-coverages acc_app 422: differs in status, body\n' +
        '    body.contract: "ctr_globex_2026", not "ctr_globex_2027"',
    );
  }, 120_000);

  it('lets one test file set a fault and the next, after the reset, meet none', async () => {
    const { ran } = await runJob({
      app: async (url, send, cli) => {
        const set = await cli(['sandbox', 'faults', 'set', '--fail-on', 'GET:/notifications*:503', '-q']);
        expect(set.exitCode, String(set.stderr)).toBe(0);
        const failed = await send([`${url}/notifications`]);
        expect(String(failed.stdout)).toContain('injected by sandbox faults set --fail-on GET:/notifications*:503');
        await theApp(url, send);
      },
      next: async (url, send) => {
        const read = await send([`${url}/notifications`]);
        expect(read.exitCode, String(read.stdout)).toBe(0);
      },
    });
    for (const r of ran) expect(r.exitCode, `${r.name}\n${r.stderr}`).toBe(0);
  }, 120_000);

  it('fails at a header check when the app sent another Idempotency-Key, showing the near miss', async () => {
    const check = `clinadmin sandbox requests --since app --method POST --header Idempotency-Key=order-17 --expect 1`;
    const { ran } = await runJob({
      edit: (name, run) => (name.startsWith('Check exactly what the app sent') ? `${run}\n${check}\n` : run),
      app: async (url, send) => {
        const body = { contract: 'ctr_globex_2027', name: 'Globex copay', type: 'deduction', amount: 12 };
        const made = await send([
          '-H',
          'content-type: application/json',
          '-H',
          'idempotency-key: order-71',
          '-d',
          JSON.stringify(body),
          `${url}/insurance-coverages`,
        ]);
        expect(made.exitCode, String(made.stdout)).toBe(0);
      },
    });
    const failed = firstFailed(ran);
    expect(failed?.name).toMatch(/^Check exactly what the app sent/);
    expect(failed?.stderr).toContain(
      'expected 1 request matching POST since app header Idempotency-Key=order-17, found 0',
    );
    expect(failed?.stderr).toContain('  POST /insurance-coverages acc_app 200: differs in header idempotency-key');
  }, 120_000);

  it('says serve stopped and shows its log when serve dies under the app, and stops cleanly all the same', async () => {
    const { ran } = await runJob({
      app: async (url, send) => {
        expect((await send([`${url}/insurance-coverages`])).exitCode).toBe(0);
        // serve dies mid-run: what the app then meets is a refused connection.
        process.kill(serverPid!, 'SIGKILL');
        expect((await send([`${url}/insurance-coverages`])).exitCode).not.toBe(0);
      },
    });
    const failed = firstFailed(ran);
    expect(failed?.name).toMatch(/^Check exactly what the app sent/);
    const why = ran.find((r) => r.name.startsWith('Say why the job failed'));
    expect(why?.exitCode).toBe(0);
    expect(why?.stdout).toMatch(/^serve has stopped\n/);
    expect(why?.stdout).toContain('listening on http://127.0.0.1:');
    const stop = ran.at(-1);
    expect(stop?.name).toMatch(/^Stop the server/);
    expect(stop?.exitCode, stop?.stderr).toBe(0);
    expect(stop?.stdout).toMatch(/^serve had already stopped\n/);
  }, 120_000);
});
