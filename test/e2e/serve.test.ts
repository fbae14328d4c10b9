// Covers: src/commands/serve.ts src/commands/serve-run.ts src/server/start.ts src/server/http/auth.ts
// Covers: src/server/service/seed.ts
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

describe('clinadmin serve', () => {
  it('prints its URL and a generated token with the login command; exits 0 on SIGTERM, the file saved', async () => {
    const dir = await tempDir();
    const { url, proc, stderr } = await serveProcess(['--seed'], { cwd: dir });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect.poll(stderr).toMatch(/accepts a generated one: (cla_\S+)/);
    const token = /accepts a generated one: (cla_\S+)/.exec(stderr())?.[1];
    expect(token).toBeDefined();
    // The login command it shows never carries the token on its command line.
    expect(stderr()).toContain(`\n  clinadmin login --base-url ${url}\n`);
    expect(stderr()).toContain(`clinadmin login --base-url ${url} --token-stdin < FILE`);
    expect(stderr()).not.toMatch(/login .*--token cla_/);
    const res = await fetch(`${url}/diagnostic-measures`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect((await res.json()).map((m: { name: string }) => m.name)).toContain('Hemoglobin');
    const created = await fetch(`${url}/diagnostic-measures`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ test: 'tst_x', name: 'Sodium' }),
    });
    const { id } = await created.json();
    proc.kill('SIGTERM');
    const result = await proc;
    expect(result.exitCode).toBe(0);
    const data = JSON.parse(await readFile(join(dir, 'clinadmin-data.json'), 'utf8'));
    expect(data.diagnosticMeasures.map((m: { id: string }) => m.id)).toContain(id);
    expect(Object.keys(data)).toEqual([
      'formatVersion',
      'diagnosticMeasures',
      'insuranceCoverages',
      'notifications',
      'contracts',
    ]);
  });

  it('takes tokens and accounts from CLINADMIN_SERVE_TOKENS', async () => {
    const dir = await tempDir();
    const { url, proc } = await serveProcess(['--data', join(dir, 'd.json')], {
      env: { CLINADMIN_SERVE_TOKENS: 'tokA:acc_a,tokB' },
    });
    const post = (token: string) =>
      fetch(`${url}/diagnostic-measures`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        // A name of its own each: (test, name) is unique.
        body: JSON.stringify({ test: 't', name: `n-${token}` }),
      }).then((r) => r.json());
    expect((await post('tokA')).createdBy).toBe('acc_a');
    expect((await post('tokB')).createdBy).toBe('local-admin');
    proc.kill('SIGINT');
    expect((await proc).exitCode).toBe(0);
  });

  it('refuses to start on a data file that does not parse, and leaves it as it was', async () => {
    const dir = await tempDir();
    const file = join(dir, 'bad.json');
    await writeFile(file, '{"diagnosticMeasures": [}');
    const r = await clinadmin(['serve', '--port', '0', '--data', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/bad\.json is not valid JSON \(line 1, column 25/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(await readFile(file, 'utf8')).toBe('{"diagnosticMeasures": [}');
  });

  it('refuses a second server on the same data file, naming the process', async () => {
    const dir = await tempDir();
    const file = join(dir, 'd.json');
    const first = await serveProcess(['--data', file, '--token', 't']);
    const second = await clinadmin(['serve', '--port', '0', '--data', file, '--token', 't']);
    expect(second.exitCode).toBe(2);
    expect(second.stderr).toMatch(new RegExp(`in use by another clinadmin serve \\(process ${first.proc.pid}\\)`));
    first.proc.kill('SIGTERM');
    await first.proc;
  });

  it('reads tokens from an owner-only --token-file, and refuses one that others can read', async () => {
    const dir = await tempDir();
    const file = join(dir, 'tokens');
    await writeFile(file, '# lab tokens\nfile-token-one:acc_one\n\n  file-token-two  \n', { mode: 0o600 });
    const s = await serveProcess(['--data', join(dir, 'd.json'), '--token-file', file]);
    const as = async (token: string) =>
      (await fetch(`${s.url}/notifications`, { headers: { authorization: `Bearer ${token}` } })).status;
    expect(await as('file-token-one')).toBe(200);
    expect(await as('file-token-two')).toBe(200);
    expect(await as('# lab tokens')).toBe(401);
    expect(s.stderr()).not.toContain('file-token');
    s.proc.kill('SIGTERM');
    await s.proc;

    await chmod(file, 0o644);
    const open = await clinadmin(['serve', '--port', '0', '--data', join(dir, 'd.json'), '--token-file', file]);
    expect(open.exitCode).toBe(2);
    expect(open.stderr).toMatch(/tokens is readable by others \(mode 644\); it holds tokens\nhint: run chmod 600/);
  });

  it('refuses a bad number with a usage error that says what a number must be, in words', async () => {
    const r = await clinadmin(['serve', '--port', 'abc']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('error: invalid option --port: must be a whole number from 0 to 65535 (got "abc")');
    const body = await clinadmin(['serve', '--max-body', '1.5']);
    expect(body.stderr).toBe('error: invalid option --max-body: must be a whole number of at least 1 (got "1.5")');
  });
});
