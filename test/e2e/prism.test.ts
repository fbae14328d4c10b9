// Covers: openapi.json src/server/http/openapi.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveProcess } from '../helpers/bin.js';
import { runShippedAsProcess } from '../helpers/run-shipped.js';
import { tempDir } from '../helpers/tmp.js';

// Prism (Stoplight's validating proxy) stands between the CLI and `clinadmin serve` with the committed
// openapi.json, and checks every request and answer against it while the CLI's scenario runs through.

const TOKEN = 'prism-token-0123456789';
const PRISM = fileURLToPath(new URL('../../node_modules/@stoplight/prism-cli/dist/index.js', import.meta.url));
const SPEC = fileURLToPath(new URL('../../openapi.json', import.meta.url));

let serve: ResultPromise;
let prism: ResultPromise;
let prismLog = '';
let proxyUrl = '';
let dir = '';

beforeAll(async () => {
  dir = await tempDir();
  const s = await serveProcess(['--seed', '--data', join(dir, 'data.json'), '--token', `${TOKEN}:acc_ci`]);
  serve = s.proc;
  prism = execa(process.execPath, [PRISM, 'proxy', SPEC, s.url, '--host', '127.0.0.1', '--port', '0'], {
    reject: false,
    env: { NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  proxyUrl = await new Promise<string>((resolve, reject) => {
    prism.stdout?.on('data', (d: Buffer) => {
      prismLog += d.toString();
      const m = /Prism is listening on (http:\/\/\S+)/.exec(prismLog);
      if (m) resolve(m[1]);
    });
    prism.stderr?.on('data', (d: Buffer) => (prismLog += d.toString()));
    void prism.then(() => reject(new Error(`prism exited: ${prismLog}`)));
  });
}, 60_000);

afterAll(async () => {
  prism?.kill('SIGKILL');
  serve?.kill('SIGKILL');
  await Promise.allSettled([prism, serve]);
});

const violations = () => prismLog.split('\n').filter((l) => /Violation/.test(l));
const received = () => prismLog.split('\n').filter((l) => /Request received/.test(l)).length;

describe('the CLI through Prism, validating against openapi.json', () => {
  it('runs the scenario, successes and refusals, with no violation of the contract', async () => {
    const env = { CLINADMIN_BASE_URL: proxyUrl, CLINADMIN_TOKEN: TOKEN, CLINADMIN_CONFIG_DIR: join(dir, 'config') };
    // The CLI as it ships, in process: Prism checks what it sends and gets, which a process would not change.
    const cli = (args: string[], extra: Record<string, string> = {}) =>
      runShippedAsProcess(args, { env: { ...env, ...extra }, cwd: dir });
    const expectExit = async (args: string[], code: number, extra?: Record<string, string>) => {
      const r = await cli(args, extra);
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(code);
      return r;
    };

    await expectExit(['measures', 'list', '-o', 'json'], 0);
    await expectExit(['measures', 'show', 'msr_k', '-o', 'json'], 0);
    const created = await expectExit(
      [
        'measures',
        'create',
        '--test',
        'tst_lytes',
        '--name',
        'Sodium',
        '--type',
        'numeric',
        '--unit',
        'mmol/L',
        '--reference-range',
        '135-145',
        '-o',
        'json',
      ],
      0,
    );
    const id = JSON.parse(created.stdout).id as string;
    await expectExit(['measures', 'update', id, '--description', 'serum sodium', '-o', 'json'], 0);
    await expectExit(['measures', 'delete', id, '--yes'], 0);
    // Refusals: not found (404), a second (test, name) (409), a contract the server lacks (422), a bad token (401).
    await expectExit(['measures', 'show', 'msr_nope'], 3);
    await expectExit(['measures', 'create', '--test', 'tst_cbc', '--name', 'Hemoglobin'], 1);
    await expectExit(['coverages', 'create', '--contract', 'ctr_nope', '--name', 'X', '--type', 'unknown'], 1);
    await expectExit(['measures', 'list'], 4, { CLINADMIN_TOKEN: 'not-the-token' });

    await expectExit(['coverages', 'list', '-o', 'json'], 0);
    await expectExit(
      [
        'coverages',
        'create',
        '--contract',
        'ctr_acme_2026',
        '--name',
        'Imaging',
        '--type',
        'override',
        '--percentage',
        '40',
        '-o',
        'json',
      ],
      0,
    );
    await writeFile(
      join(dir, 'c.json'),
      JSON.stringify([{ contract: 'ctr_state_2026', name: 'Collection tubes', type: 'deduction', percentage: 90 }]),
    );
    await expectExit(['coverages', 'apply', 'c.json', '--prune', '--yes'], 0);
    await writeFile(
      join(dir, 'm.json'),
      JSON.stringify([{ test: 'tst_bmp', name: 'Chloride', type: 'numeric', unit: 'mmol/L' }]),
    );
    await expectExit(['measures', 'import', 'm.json'], 0);
    const notes = JSON.parse((await expectExit(['notifications', 'list', '-o', 'json'], 0)).stdout);
    await expectExit(['notifications', 'show', notes[0].id, '-o', 'json'], 0);
    await expectExit(['api', 'GET', '/contracts'], 0);

    await expect.poll(received).toBeGreaterThanOrEqual(18);
    expect(violations()).toEqual([]);
  });

  it('captures through Prism with no violation, into a file serve --load answers the same lists from', async () => {
    const here = await tempDir();
    const env = { CLINADMIN_BASE_URL: proxyUrl, CLINADMIN_TOKEN: TOKEN, CLINADMIN_CONFIG_DIR: join(here, 'config') };
    const before = received();
    const r = await runShippedAsProcess(['sandbox', 'capture', '--out', 'copy.json', '--timeout', '30'], {
      env,
      cwd: here,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    // Three GETs of the lists, each checked against the contract.
    await expect.poll(received).toBe(before + 3);
    expect(violations()).toEqual([]);
    const copy = await serveProcess(['--load', 'copy.json', '--token', 'copy-token'], { cwd: here });
    try {
      const list = async (url: string, path: string, token: string) =>
        (await fetch(url + path, { headers: { authorization: `Bearer ${token}` } })).json();
      for (const path of ['/diagnostic-measures', '/insurance-coverages', '/notifications', '/contracts'])
        expect(await list(copy.url, path, 'copy-token'), path).toEqual(await list(proxyUrl, path, TOKEN));
    } finally {
      copy.proc.kill('SIGTERM');
      await copy.proc;
    }
  });

  it('would see a violation: a body the contract refuses is reported (the check above can fail)', async () => {
    const before = violations().length;
    const res = await fetch(`${proxyUrl}/diagnostic-measures`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ test: 't', name: 'n', colour: 'red' }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('sl-violations')).toContain("found 'colour'");
    await expect.poll(() => violations().length).toBe(before + 1);
  });
});
