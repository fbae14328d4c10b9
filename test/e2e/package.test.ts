// Covers: package.json scripts/build.mjs
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it, onTestFinished } from 'vitest';
import { pack } from '../helpers/pack.js';
import { tempDir } from '../helpers/tmp.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/**
 * What the installed package may weigh: the bundle, its source maps (names and lines without the sources,
 * so a --verbose stack trace names src/ files), its licences, completions, man pages and the README. The
 * client chunk is undici's whole public entry (fetch, WebSocket and the cache ride along: ~0.5 MB of code
 * and as much map more than its pool alone), hence 5 MiB where 4 held before; 5.25 MiB since the sandbox's
 * checks (journal facts, near misses, run-time faults, headers: ~60 KB with their maps, man pages,
 * completions and OpenAPI text) and clinadmin/testing (~30 KB with its types and maps) came in.
 */
const MAX_INSTALLED_BYTES = 5.25 * 1024 * 1024;

async function treeSize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

describe('the npm package', () => {
  it('installs offline from the tarball alone, with no dependencies, and runs from any folder', async () => {
    const work = await tempDir();
    const tarball = await pack(work);
    expect(tarball).toMatch(/^clinadmin-\d+\.\d+\.\d+\.tgz$/);
    const prefix = join(work, 'prefix');
    // --offline with an empty cache: anything the tarball does not hold would fail the install.
    const cache = join(work, 'npm-cache');
    await execa(
      'npm',
      [
        'install',
        '-g',
        '--offline',
        '--cache',
        cache,
        '--prefix',
        prefix,
        '--no-audit',
        '--no-fund',
        join(work, tarball),
      ],
      { cwd: work, env: { TMPDIR: work } },
    );

    const modules = join(prefix, 'lib', 'node_modules');
    expect(await readdir(modules)).toEqual(['clinadmin']);
    const installed = join(modules, 'clinadmin');
    expect(await readdir(installed)).not.toContain('node_modules');
    expect(await treeSize(installed)).toBeLessThan(MAX_INSTALLED_BYTES);

    // npm links the man pages of package.json's `man` into the prefix, one a command (`man clinadmin-measures-import`).
    const manDir = join(prefix, 'share', 'man', 'man1');
    const pages = await readdir(manDir);
    expect(pages).toEqual(expect.arrayContaining(['clinadmin.1', 'clinadmin-measures-import.1', 'clinadmin-serve.1']));
    expect(pages.sort()).toEqual((await readdir(join(root, 'docs', 'man'))).sort());

    const bin = join(prefix, 'bin', 'clinadmin');
    const elsewhere = await tempDir();
    const env = {
      CLINADMIN_CONFIG_DIR: join(elsewhere, 'config'),
      XDG_CACHE_HOME: join(elsewhere, 'cache'),
      NO_COLOR: '1',
      CI: '1',
    };
    const version = await execa(bin, ['--version'], { cwd: elsewhere, reject: false, env });
    expect(version.exitCode).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+$/);

    const completion = await execa(bin, ['completion', 'bash'], { cwd: elsewhere, reject: false, env });
    expect(completion.exitCode, completion.stderr).toBe(0);
    expect(completion.stdout).toContain('complete -F _clinadmin clinadmin');

    const serve = execa(bin, ['serve', '--port', '0', '--seed', '--token', 'pkg'], {
      cwd: elsewhere,
      reject: false,
      env,
    });
    // Stopped below; killed if an assertion fails first.
    onTestFinished(() => void serve.kill('SIGKILL'));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      serve.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      void serve.then((r) => reject(new Error(`serve exited ${r.exitCode}: ${r.stderr}`)));
    });
    const list = await execa(bin, ['measures', 'list', '-o', 'json'], {
      cwd: elsewhere,
      reject: false,
      env: { ...env, CLINADMIN_BASE_URL: url, CLINADMIN_TOKEN: 'pkg' },
    });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stderr).toBe('');
    const names = (JSON.parse(list.stdout) as Array<{ name: string }>).map((m) => m.name);
    expect(names).toContain('Hemoglobin');
    serve.kill('SIGTERM');
    expect((await serve).exitCode).toBe(0);
    expect(await readdir(elsewhere)).toContain('clinadmin-data.json');
  }, 180_000);
});
