import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const define = { __CLINADMIN_VERSION__: JSON.stringify(version) };

/**
 * The test tiers as projects. `npm test` runs unit (pure functions), cli (the CLI in process against the
 * real server on port 0) and e2e (the built binary): Node alone, any user. `npm run test:system` runs system
 * (what needs root, tmux, script, zsh, fish, python3 or curl; a missing tool fails, never skips) and stress
 * (the SIGKILL crash rounds, the 30 s load test, the lock races). .ci/run runs both.
 */
// Timeouts catch a hang, never measure speed (speed targets live in the bench): generous enough for a machine
// whose two cores are busy with other work, where a test of a few seconds alone takes ten times as long.
const TIMEOUTS = { testTimeout: 120_000, hookTimeout: 120_000 };
// The cli files load the same modules (src/, zod, the server) and keep no state between files, so they share
// one module graph a worker (isolate: false): each file no longer loads them again, which was half of that
// tier's CPU time. Each file's cleanup comes from setup.ts (test/helpers/cleanup.ts says why). A file that
// mocks a module (vi.mock) needs a graph of its own, since a module another file loaded first stays real:
// unit's data-file-lock.test.ts does, so unit stays isolated (it failed so as a non-root user, in one order).
// Its files run in worker threads, not processes: a graph a file costs the same, but a thread spares the
// fork and Node's start (~3-5 of the tier's ~28 CPU-s); its tests change no process-wide state a thread lacks.
const tier = (name: string, { timeouts = TIMEOUTS, isolate = true, pool = 'forks' as 'forks' | 'threads' } = {}) => ({
  define,
  test: {
    name,
    include: [`test/${name}/**/*.test.ts`],
    setupFiles: ['test/helpers/setup.ts'],
    isolate,
    pool,
    ...timeouts,
  },
});

/**
 * The files that take longest, longest first. Vitest starts the files whose last duration it knows longest
 * first, but a fresh clone has no durations, and then it starts the largest files first: docs-examples,
 * a small file that runs for a minute, started after most others and ran on alone at the end (13 s of a
 * 156 s run), and once unit's longest ran on alone at the end (12 s of a 173 s run). These start first in
 * every run, so a fresh clone runs in the order a warm tree does. The list is what a full run measured
 * (vitest's JSON report, endTime - startTime), of every tier; a stale one costs time, not results.
 * Vitest shuffles files only with its own sequencer, so here `--sequence.shuffle` shuffles the tests of a
 * file, not the order of files.
 */
const LONGEST = [
  'e2e/sandbox-capture',
  'e2e/hostile-deadline',
  'e2e/jobs',
  'e2e/hostile-serve',
  'e2e/docs-examples',
  'e2e/serve-stop',
  'e2e/edit',
  'e2e/cli',
  'e2e/serve-ci',
  'e2e/linear-inputs',
  'e2e/sandbox',
  'e2e/package',
  'e2e/list-stream',
  'e2e/token-at-rest',
  'e2e/testing-api',
  'e2e/hostile-peer',
  'e2e/testing-package',
  'e2e/demo-plain',
  'unit/formats-roundtrip',
  'unit/data-file-lock',
  'unit/store',
  'cli/fhir',
  'cli/lab-catalog',
  'unit/existing',
];
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST.findIndex((name) => f.moduleId.endsWith(`/test/${name}.test.ts`));
      return i < 0 ? LONGEST.length : i;
    };
    // Array sort is stable: past the listed files, vitest's own order stays.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    // Most of a test's time is spent waiting on a process it started (the built binary, serve) or on a clock it
    // tests (sandbox capture's minute, the deadlines, --stop-grace), so files run six at a time even on two
    // cores: a file that only waits holds no core, and on a busy machine more of the suite's work is runnable
    // beside the other load. vitest's default (cores - 1) ran them one at a time here.
    maxWorkers: 6,
    // Each test as it ends, not only each file: a file of slow tests (docs-examples, a minute) is not a
    // minute of silence. `--reporter=default` on the command line gives the shorter view back.
    reporters: ['verbose'],
    globalSetup: ['test/helpers/global-tmp.ts'],
    sequence: { sequencer: LongestFirst },
    projects: [
      tier('unit', { pool: 'threads' }),
      tier('cli', { isolate: false }),
      tier('e2e'),
      tier('system'),
      tier('stress', { timeouts: { testTimeout: 180_000, hookTimeout: 120_000 } }),
    ],
  },
});
