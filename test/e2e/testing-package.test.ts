import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { pack } from '../helpers/pack.js';
import { tempDir } from '../helpers/tmp.js';

// clinadmin/testing as a project gets it: the packed tarball installed offline, used by the project's own
// vitest (docs/ci.md's example, as written), by require(), and by TypeScript.

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the npm package', () => {
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
