import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../helpers/tmp.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/**
 * What the installed package may weigh: the bundle, its source maps (names and lines without the sources,
 * so a --verbose stack trace names src/ files), its licences, completions, man pages and the README. The
 * client chunk is undici's whole public entry (fetch, WebSocket and the cache ride along: ~0.5 MB of code
 * and as much map more than its pool alone), hence 5 MiB where 4 held before; clinadmin/testing (~30 KB with
 * its types and maps) passed that by a little, which had ~15 KB left, hence 5.25 MiB.
 */
const MAX_INSTALLED_BYTES = 5.25 * 1024 * 1024;

async function treeSize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** `npm pack` into `work`: the tarball's name. */
async function pack(work: string): Promise<string> {
  // --ignore-scripts: the suite already built dist/, and prepack's rebuild would pull it from under the other tests.
  // TMPDIR: npm keeps a compile cache there, which would outlive the test.
  await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--silent'], {
    cwd: root,
    env: { TMPDIR: work },
  });
  return (await readdir(work)).find((f) => f.endsWith('.tgz'))!;
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

  it("gives a project clinadmin/testing: docs/ci.md's vitest example, require() and the types", async () => {
    const work = await tempDir();
    const tarball = await pack(work);
    const project = join(work, 'project');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    await execa(
      'npm',
      [
        'install',
        '--offline',
        '--cache',
        join(work, 'npm-cache'),
        '--no-audit',
        '--no-fund',
        '--silent',
        join(work, tarball),
      ],
      {
        cwd: project,
        env: { TMPDIR: work },
      },
    );
    // The project's own test runner and types: this repo's, as the project would install them.
    await symlink(join(root, 'node_modules', 'vitest'), join(project, 'node_modules', 'vitest'));

    const page = await readFile(join(root, 'docs', 'ci.md'), 'utf8');
    const example = /```ts\n([\s\S]*?)```/.exec(page.split('## Serve from a JavaScript test suite')[1] ?? '')?.[1];
    expect(example, 'docs/ci.md has no ts example under "Serve from a JavaScript test suite"').toBeDefined();
    await writeFile(join(project, 'coverages.test.ts'), example!);
    const vitest = await execa(process.execPath, [join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], {
      cwd: project,
      reject: false,
      env: { NO_COLOR: '1', CI: '1' },
    });
    expect(vitest.exitCode, `${vitest.stdout}\n${vitest.stderr}`).toBe(0);
    expect(vitest.stdout).toMatch(/Tests\s+2 passed \(2\)/);

    await writeFile(
      join(project, 'start.cjs'),
      "require('clinadmin/testing').startServe().then(async (api) => { console.log(api.url); await api.close(); });\n",
    );
    const required = await execa(process.execPath, ['start.cjs'], { cwd: project, reject: false });
    expect(required.exitCode, required.stderr).toBe(0);
    expect(required.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    // The types, by each resolution a project of today uses: a wrong option is an error, so they were read.
    await writeFile(
      join(project, 'types.ts'),
      [
        "import { ExpectationError, startServe, type TestServe } from 'clinadmin/testing';",
        "export const api: Promise<TestServe> = startServe({ seed: 'state.json', faults: { failRate: 0.1 } });",
        "export const requests = (await api).requests({ method: 'POST', body: { name: 'x' } });",
        'export const mismatch = (e: unknown) => e instanceof ExpectationError && e.requests.length;',
        '// @ts-expect-error: no such option',
        'startServe({ sead: {} });',
        '',
      ].join('\n'),
    );
    for (const [module, moduleResolution] of [
      ['node16', 'node16'],
      ['nodenext', 'nodenext'],
      ['esnext', 'bundler'],
    ]) {
      const options = { module, moduleResolution, target: 'es2022', strict: true, noEmit: true, types: ['node'] };
      const typeRoots = [join(root, 'node_modules', '@types')];
      await writeFile(
        join(project, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { ...options, typeRoots }, files: ['types.ts'] }),
      );
      const tsc = await execa(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], {
        cwd: project,
        reject: false,
      });
      expect(tsc.exitCode, `${moduleResolution}: ${tsc.stdout}`).toBe(0);
    }
  }, 180_000);
});
