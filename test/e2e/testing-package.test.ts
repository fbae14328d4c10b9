// Covers: src/testing/index.ts package.json scripts/tsconfig.testing.json
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leftProcesses } from '../helpers/left-processes.js';
import { pack } from '../helpers/pack.js';

// clinadmin/testing as a project gets it: the packed tarball installed offline, used by the project's own
// vitest (docs/ci.md's example, as written), by require(), by TypeScript, and by a CommonJS jest project.

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = fileURLToPath(new URL('../fixtures/testing/', import.meta.url));

let work: string;
/** An ES module project (vitest's example, the types) and a CommonJS one (jest's), each with the tarball. */
let project: string;
let jestProject: string;

/** `npm install` of the tarball, offline, as a project adds it as a devDependency. */
async function install(folder: string, tarball: string, manifest: object) {
  await mkdir(folder);
  await writeFile(join(folder, 'package.json'), JSON.stringify(manifest));
  const cache = join(work, 'npm-cache');
  await execa('npm', ['install', '-D', '--offline', '--cache', cache, '--no-audit', '--no-fund', '--silent', tarball], {
    cwd: folder,
    env: { TMPDIR: work },
  });
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'clinadmin-package-'));
  const tarball = join(work, await pack(work));
  project = join(work, 'project');
  jestProject = join(work, 'jest-project');
  await Promise.all([
    install(project, tarball, { name: 'app', private: true, type: 'module' }),
    install(jestProject, tarball, { name: 'jest-app', private: true, scripts: { test: 'jest' } }),
  ]);
}, 180_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the npm package', () => {
  it("gives a project clinadmin/testing: docs/ci.md's vitest example, require() and the types", async () => {
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

  it("runs under jest's default config, by require(), with its fake timers on too, and leaves nothing", async () => {
    await cp(join(fixtures, 'jest'), jestProject, { recursive: true });
    // A TMPDIR of its own: jest's cache lands there, and so does every serve's temporary folder.
    const tmp = join(work, 'jest-tmp');
    await mkdir(tmp);
    // One run of jest's own binary for both files, as `npm test` runs it in the project.
    const jest = await execa(process.execPath, [join(root, 'node_modules', 'jest', 'bin', 'jest.js'), '--json'], {
      cwd: jestProject,
      reject: false,
      env: { TMPDIR: tmp, NO_COLOR: '1', CI: '1' },
    });
    expect(jest.exitCode, jest.stderr).toBe(0);
    const results = JSON.parse(jest.stdout) as Record<string, unknown>;
    expect(results, jest.stderr).toMatchObject({
      success: true,
      numTotalTestSuites: 2,
      numPassedTests: 5,
      numFailedTests: 0,
      numFailedTestSuites: 0,
      numRuntimeErrorTestSuites: 0,
      numPendingTests: 0,
    });
    // What is left: jest's cache, and no serve's folder nor any process started under this TMPDIR.
    expect((await readdir(tmp)).filter((f) => !f.startsWith('jest_'))).toEqual([]);
    expect(leftProcesses(tmp)).toEqual([]);
  }, 180_000);
});
