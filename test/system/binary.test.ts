// Covers: scripts/build-binary.mjs scripts/sea-main.cjs scripts/sea-load.cjs scripts/sea-warm.cjs
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, clinadmin, serveProcess } from '../helpers/bin.js';
import { AGAIN, builtBeside, distBin } from '../helpers/dist-bin.js';
import { E2E_TOKEN, loggedIn } from '../helpers/logged-in.js';
import { listsAsServeHolds } from '../helpers/serve-list.js';
import { tempDir } from '../helpers/tmp.js';

// clinadmin as one executable file (npm run build:binary), built here from this tree, run where no node can
// be found: no-node.sh binds /dev/null over every node and hides Node's folders in a mount namespace (root).
// The x64 file runs a named set of the e2e and terminal tests through the helpers' launcher; the arm64 file
// runs under qemu-user (Debian's qemu-user-static, with the arm64 C libraries of libc6-arm64-cross), and the
// x64 file runs again under qemu-user as the oldest x86-64 CPU.

const root = fileURLToPath(new URL('../..', import.meta.url));
const VITEST = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const NO_NODE = join(root, 'test', 'helpers', 'no-node.sh');
/** Every job of the CLI that these files hold, each run through the file (edit.test.ts's editor is node). */
const E2E = ['cli', 'serve', 'serve-stop', 'sandbox', 'jobs', 'list-stream', 'config-lock', 'token-at-rest'];
/** What the jobs say and send: runShipped runs the file as a process where the cli tier runs the bundle. */
const CLI = ['jobs', 'hostile-text', 'input-files', 'real-service'];
/** browse and watch, the tables, the prompts and the import progress at a real terminal (tmux). */
const TERMINAL = ['browse', 'terminal-widths', 'terminal-views'];
const ARM64_LIBS = '/usr/aarch64-linux-gnu';

let out = '';
let done: () => Promise<unknown> = async () => undefined;
/** Whether `out` is .ci/run's build of the run, which holds the OCI images too. */
let given = false;
/** The vitest reports of the files run through the executable: a folder of this file's own. */
let reports = '';
const x64 = () => join(out, 'clinadmin-linux-x64');

beforeAll(async () => {
  ({ out, done, given } = await distBin());
  reports = await mkdtemp(join(tmpdir(), 'clinadmin-binary-reports-'));
}, 900_000);
afterAll(async () => {
  await done();
  await rm(reports, { recursive: true, force: true });
});

/** Runs named test files of a tier in a vitest of their own, the launcher pointed at the x64 file. */
async function runFiles(project: string, names: string[]) {
  const report = join(reports, `${project}-report.json`);
  const files = names.map((n) => `test/${project}/${n}.test.ts`);
  const r = await execa(
    process.execPath,
    // One file at a time, and each test the longer deadline a run through a mount namespace needs on a
    // shared machine (the assertions are the files' own).
    [
      VITEST,
      'run',
      '--project',
      project,
      ...files,
      '--maxWorkers=1',
      '--testTimeout=120000',
      '--hookTimeout=120000',
      '--reporter=json',
      `--outputFile=${report}`,
    ],
    {
      cwd: root,
      reject: false,
      env: { ...process.env, CLINADMIN_TEST_BINARY: x64(), CLINADMIN_TEST_NO_NODE: '1' },
    },
  );
  const json = JSON.parse(await readFile(report, 'utf8')) as {
    numTotalTests: number;
    numPassedTests: number;
    testResults: {
      name: string;
      status: string;
      assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
    }[];
  };
  const failed = json.testResults.flatMap((f) => f.assertionResults.filter((a) => a.status !== 'passed'));
  const why = (a: (typeof failed)[number]) => (a.failureMessages[0] ?? '').split('\n')[0];
  expect(failed.map((a) => `${a.fullName}: ${a.status} ${why(a)}`)).toEqual([]);
  expect(json.testResults.map((f) => f.name.slice(root.length)).sort()).toEqual(files.sort());
  expect(json.numPassedTests).toBe(json.numTotalTests);
  expect(json.numTotalTests).toBeGreaterThan(names.length);
  expect(r.exitCode, r.stderr.slice(-2000)).toBe(0);
}

describe('npm run build:binary', () => {
  it('writes the executables, man pages and Debian packages, with a SHA256SUMS sha256sum -c accepts', async () => {
    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    const check = await execa('sha256sum', ['-c', 'SHA256SUMS'], { cwd: out, reject: false });
    // .ci/run's build of the run lists the images (npm run build:image) beside them.
    const images = given ? ['clinadmin-image-linux-amd64.tar: OK', 'clinadmin-image-linux-arm64.tar: OK'] : [];
    expect([check.exitCode, check.stdout.split('\n').sort()]).toEqual([
      0,
      [
        ...images,
        'clinadmin-linux-arm64: OK',
        'clinadmin-linux-x64: OK',
        'clinadmin-man.tar.gz: OK',
        `clinadmin_${version}_amd64.deb: OK`,
        `clinadmin_${version}_arm64.deb: OK`,
      ].sort(),
    ]);
    const pages = (await execa('tar', ['-tzf', join(out, 'clinadmin-man.tar.gz')])).stdout.split('\n');
    expect(pages).toContain('man1/clinadmin.1');
    expect(pages).toContain('man1/clinadmin-measures-import.1');
    // The same source makes the same bytes, wherever it is built: a second build, in a folder of another
    // depth, writes every file the first wrote (the x64 file's code caches and the entry's name in each
    // executable included), byte for byte.
    const deeper = await builtBeside(out, AGAIN, [['build-binary.mjs', []]]);
    const sums = async (dir: string) => (await readFile(join(dir, 'SHA256SUMS'), 'utf8')).split('\n');
    expect(await sums(deeper)).toEqual(await sums(out));
    // Nothing of the folder it was built in is inside the executable.
    const bytes = await readFile(join(deeper, 'clinadmin-linux-x64'));
    expect(bytes.includes(deeper)).toBe(false);
  }, 600_000);
});

describe('the linux-x64 file where no node can be found', () => {
  it('finds no node to run, prints its version, and reads no NODE_OPTIONS', async () => {
    const none = await execa(NO_NODE, [root, 'sh', '-c', 'command -v node || echo none; node -e 0'], {
      reject: false,
    });
    expect(none.stdout).toBe('none');
    expect(none.exitCode).not.toBe(0);
    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    const v = await execa(NO_NODE, [root, x64(), '--version'], { reject: false });
    expect([v.exitCode, v.stdout, v.stderr]).toEqual([0, version, '']);
    // NODE_OPTIONS is a Node's, not the file's: a --require there (as editors set it to attach a debugger) is
    // never loaded, where a node would stop on the missing file.
    const opts = await execa(NO_NODE, [root, x64(), '--version'], {
      reject: false,
      env: { ...process.env, NODE_OPTIONS: '--require /nonexistent/hook.js' },
    });
    expect([opts.exitCode, opts.stdout, opts.stderr]).toEqual([0, version, '']);
  });

  it(`passes ${E2E.length} e2e files run against it`, () => runFiles('e2e', E2E), 900_000);

  it(`passes ${CLI.length} cli files of what the jobs say and send`, () => runFiles('cli', CLI), 900_000);

  it(
    'passes browse, watch, the prompts and the progress at a real terminal',
    () => runFiles('system', TERMINAL),
    900_000,
  );

  it('exports FHIR and CSV, imports FHIR back, evaluates and completes as the npm package does', async () => {
    process.env.CLINADMIN_TEST_BINARY = x64();
    process.env.CLINADMIN_TEST_NO_NODE = '1';
    try {
      const session = await loggedIn();
      const dir = await tempDir();
      // The npm package run by Node is the other system: the file must answer as it does, byte for byte.
      const both = async (args: string[]) => {
        const file = await session.run(args);
        const pkg = await execa('node', [BIN, ...args], {
          reject: false,
          env: { ...process.env, NO_COLOR: '1', CI: '1', ...session.env },
        });
        expect([file.exitCode, file.stdout, file.stderr], args.join(' ')).toEqual([
          pkg.exitCode,
          pkg.stdout,
          pkg.stderr,
        ]);
        return file;
      };
      const fhir = await both(['measures', 'export', '--format', 'fhir']);
      expect(JSON.parse(fhir.stdout)).toMatchObject({ resourceType: 'Bundle' });
      const lines = (await both(['measures', 'export', '--format', 'fhir-ndjson'])).stdout.split('\n');
      expect(JSON.parse(lines[0])).toMatchObject({ resourceType: 'ObservationDefinition' });
      await both(['measures', 'export', '--format', 'csv', '--delimiter', ';']);
      await both(['measures', 'evaluate', 'msr_hgb', '--value', '5', '--sex', 'female', '--age', '45']);
      await both(['measures', 'evaluate', 'msr_hgb', '--value', '14', '-o', 'json']);
      await both(['measures', 'lint', '--help']);
      await both(['completion', 'zsh']);
      // The FHIR Bundle goes into an empty server, which then holds the same catalog.
      await writeFile(join(dir, 'bundle.json'), fhir.stdout);
      const other = await serveProcess(['--data', join(dir, 'other.json'), '--token', E2E_TOKEN]);
      const env = { CLINADMIN_BASE_URL: other.url, CLINADMIN_TOKEN: E2E_TOKEN };
      const imported = await clinadmin(['measures', 'import', join(dir, 'bundle.json')], { env });
      expect(imported.exitCode, imported.stderr).toBe(0);
      // The ids are the new server's own: the catalog without them (export's JSON) is the same.
      const back = await clinadmin(['measures', 'export'], { env });
      expect(back.stdout).toBe((await session.run(['measures', 'export'])).stdout);
      other.proc.kill('SIGTERM');
      await other.proc;
      session.server.proc.kill('SIGTERM');
      await session.server.proc;
    } finally {
      delete process.env.CLINADMIN_TEST_BINARY;
      delete process.env.CLINADMIN_TEST_NO_NODE;
    }
  }, 120_000);
});

// The oldest x86-64 the file must start on: QEMU's `qemu64` model is the x86-64 baseline (SSE2 and SSE3, no
// SSSE3, SSE4 or AVX; below x86-64-v2). Node's own x64 binary runs there, so the file, whose code cache was
// made on this build machine's CPU, must too: V8 probes the CPU it runs on, and a cache is bytecode, not
// machine code. qemu-user answers CPUID as that model, so glibc and V8 pick their code paths for it.
const OLDEST_X64 = 'qemu64';

describe(`the linux-x64 file on the oldest x86-64 (qemu-x86_64 -cpu ${OLDEST_X64})`, () => {
  const old = (args: string[], env: Record<string, string> = {}) =>
    execa('qemu-x86_64-static', ['-cpu', OLDEST_X64, x64(), ...args], {
      reject: false,
      env: { ...process.env, NO_COLOR: '1', CI: '1', ...env },
      timeout: 120_000,
    });

  it('prints its version and help as on this CPU, and lists measures from a server', async () => {
    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    const v = await old(['--version']);
    expect([v.exitCode, v.stdout, v.stderr]).toEqual([0, version, '']);
    const help = await old(['measures', 'create', '--help']);
    const native = await execa(x64(), ['measures', 'create', '--help'], {
      reject: false,
      env: { ...process.env, NO_COLOR: '1', CI: '1' },
    });
    expect([help.exitCode, help.stdout, help.stderr]).toEqual([0, native.stdout, '']);
    expect(help.stdout).toContain('Usage: clinadmin measures create');
    await listsAsServeHolds((env, dir) =>
      old(['measures', 'list', '-o', 'json'], { ...env, CLINADMIN_CONFIG_DIR: join(dir, 'config') }),
    );
  }, 300_000);
});

describe('the linux-arm64 file under qemu-user', () => {
  const qemu = (args: string[], env: Record<string, string> = {}) =>
    execa('qemu-aarch64-static', ['-L', ARM64_LIBS, join(out, 'clinadmin-linux-arm64'), ...args], {
      reject: false,
      env: { ...process.env, NO_COLOR: '1', CI: '1', ...env },
      timeout: 120_000,
    });

  it('prints its version and lists measures from a server', async () => {
    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    const v = await qemu(['--version']);
    expect([v.exitCode, v.stdout, v.stderr]).toEqual([0, version, '']);
    await listsAsServeHolds((env, dir) =>
      qemu(['measures', 'list', '-o', 'json'], { ...env, CLINADMIN_CONFIG_DIR: join(dir, 'config') }),
    );
  }, 300_000);
});
