import { execa } from 'execa';
import { cp, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testServer, TOKEN } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** `measures list` through a copy of the binary at `base`, with NODE_DEBUG reporting the code cache. */
async function list(base: string, server: Awaited<ReturnType<typeof testServer>>) {
  const r = await execa('node', [join(base, 'bin', 'clinadmin.cjs'), 'measures', 'list', '-o', 'json'], {
    reject: false,
    env: { CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: TOKEN, CLINADMIN_CONFIG_DIR: join(base, 'config'), NO_COLOR: '1', NODE_DEBUG: 'clinadmin' },
  });
  expect(r.exitCode, r.stderr).toBe(0);
  const stored = (await server.call('GET', '/diagnostic-measures')).body as Array<{ name: string }>;
  expect(stored.length).toBeGreaterThan(0);
  expect((JSON.parse(r.stdout) as Array<{ name: string }>).map((m) => m.name)).toEqual(stored.map((m) => m.name));
  return r.stderr;
}

describe('the code cache the build ships', () => {
  it('is used for the entry and the HTTP client chunk of a request command', async () => {
    const server = await testServer({ seed: true });
    const stderr = await list(root, server);
    expect(stderr).toMatch(/^CLINADMIN \d+: code cache used for cli\.cjs$/m);
    expect(stderr).toMatch(/^CLINADMIN \d+: code cache used for chunks\/client-\w+\.cjs$/m);
    expect(stderr).not.toMatch(/rejected|missing/);
  });

  it('costs speed, never correctness, when a cache is damaged', async () => {
    const server = await testServer({ seed: true });
    const copy = await tempDir();
    await cp(join(root, 'bin'), join(copy, 'bin'), { recursive: true });
    await cp(join(root, 'dist'), join(copy, 'dist'), { recursive: true });
    const files = (await readdir(join(copy, 'dist', 'code-cache'), { recursive: true })).filter((f) => f.endsWith('.bin'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) await writeFile(join(copy, 'dist', 'code-cache', f), Buffer.from('not a V8 code cache'));
    const stderr = await list(copy, server);
    expect(stderr).toMatch(/^CLINADMIN \d+: code cache rejected for chunks\/client-\w+\.cjs$/m);
  });
});
