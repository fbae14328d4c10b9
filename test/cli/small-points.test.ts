// Covers: src/commands/notifications/readable.ts src/commands/notifications/list-run.ts src/commands/login-run.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

// Issue 64's small points: show's meta as browse shows it, login's hint for a refused token, and a list
// filtered to one type giving TYPE's column to the code.

async function setup() {
  const dir = await tempDir();
  const dataFile = join(dir, 'data.json');
  const now = Date.now();
  const note = (id: string, code: string, meta?: Record<string, unknown>) => ({
    id,
    createdAt: now - 60_000,
    type: 'diagnostic-measure',
    code,
    title: `Measure created: Hemoglobin A1c/Hemoglobin.total in Blood by HPLC (${id})`,
    body: 'A measure was created.',
    ...(meta ? { meta } : {}),
    seenBy: [],
  });
  const notifications = [
    note('ntf_meta', 'diagnostic-measure-created', { test: 'tst_a1c', by: 'acc_lab_maria', count: 2 }),
    note('ntf_empty', 'diagnostic-measure-updated', {}),
  ];
  await writeFile(dataFile, JSON.stringify({ notifications }));
  const server = await testServer({ dataFile });
  const env = cliEnv(server.url, dir);
  return {
    server,
    cli: (argv: string[], extra: Record<string, string> = {}) =>
      runCli(argv, { env: { ...env, ...extra }, cwd: dir, stdoutTTY: extra.COLUMNS === undefined }),
  };
}

describe('notifications show', () => {
  it('lays out meta as `key: value` lines, as browse does; an empty meta has no heading', async () => {
    const { cli } = await setup();
    const r = await cli(['notifications', 'show', 'ntf_meta', '--peek']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('meta\n  test: tst_a1c\n  by: acc_lab_maria\n  count: 2\n');
    expect(r.stdout).not.toContain('{');
    const empty = await cli(['notifications', 'show', 'ntf_empty', '--peek']);
    expect(empty.code).toBe(0);
    expect(empty.stdout).not.toMatch(/^meta$/m);
  });
});

describe('notifications list --type', () => {
  it('leaves TYPE out, every row having it, and the code keeps its room at 80 columns', async () => {
    const { cli } = await setup();
    const r = await cli(['notifications', 'list', '--type', 'diagnostic-measure', '-o', 'table'], { COLUMNS: '80' });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +TIME +CODE +TITLE +SEEN$/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    // The code has TYPE's room: more of it than the 4 columns it keeps beside TYPE (`dia…`).
    const row = lines.find((l) => l.startsWith('ntf_meta'))!;
    const code = row.slice(lines[0].indexOf('CODE'), lines[0].indexOf('TITLE')).trim();
    expect('diagnostic-measure-created'.startsWith(code.replace(/…$/, ''))).toBe(true);
    expect(code.length).toBeGreaterThan(4);
    const both = await cli(['notifications', 'list', '-o', 'table'], { COLUMNS: '80' });
    expect(both.stdout.split('\n')[0]).toMatch(/^ID +TIME +TYPE +CODE +TITLE +SEEN$/);
    // Data keeps every field: JSON and CSV are not views.
    const csv = await cli(['notifications', 'list', '--type', 'diagnostic-measure', '-o', 'csv'], { COLUMNS: '80' });
    expect(csv.stdout.split('\r\n')[0]).toBe('id,createdAt,type,code,title,seenBy');
  });
});

describe('login with a refused token', () => {
  it('says to check the token, not to run the login just run; nothing is saved (exit 4)', async () => {
    const { server } = await setup();
    const dir = await tempDir();
    const r = await runCli(['login', '--base-url', server.url, '--token', 'wrong-token-123456'], {
      env: { CLINADMIN_CONFIG_DIR: join(dir, 'config') },
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('the API refused the token (401)');
    expect(r.stderr).toContain('check the token for this base URL');
    expect(r.stderr).not.toContain('run `clinadmin login`');
  });
});
