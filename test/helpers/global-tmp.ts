import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leftProcesses } from './left-processes.js';

// Every run gets a TMPDIR of its own, inherited by the test workers and every process they start, so that
// at the end it can be held to what it began as: empty, with no process left that was started inside it.

let dir: string | undefined;
let outer: string | undefined;
let runtime: string | undefined;
let outerRuntime: string | undefined;
let cache: string | undefined;

export function setup(): void {
  outer = process.env.TMPDIR;
  outerRuntime = process.env.XDG_RUNTIME_DIR;
  // serve's locks by inode meet in the runtime folder; one a test kills with SIGKILL leaves its lock there, as
  // on a real machine, so the run has a runtime folder of its own beside its TMPDIR.
  runtime = mkdtempSync(join(tmpdir(), 'clinadmin-tests-run-'));
  process.env.XDG_RUNTIME_DIR = runtime;
  // One compile cache for the run's every clinadmin (test/helpers/bin.ts): a fresh one per process had V8
  // compile the whole bundle each time (~70 ms a process on a quiet machine, a thousand processes a run).
  cache = mkdtempSync(join(tmpdir(), 'clinadmin-tests-cache-'));
  process.env.CLINADMIN_TEST_CACHE_HOME = cache;
  dir = mkdtempSync(join(tmpdir(), 'clinadmin-tests-'));
  // As /tmp is: tests that run the CLI as another user (docs-examples, as nobody) reach and write in it too.
  chmodSync(dir, 0o1777);
  process.env.TMPDIR = dir;
}

export function teardown(): void {
  if (dir === undefined) return;
  const tmp = dir;
  dir = undefined;
  if (outer === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = outer;
  if (outerRuntime === undefined) delete process.env.XDG_RUNTIME_DIR;
  else process.env.XDG_RUNTIME_DIR = outerRuntime;
  if (runtime !== undefined) rmSync(runtime, { recursive: true, force: true });
  delete process.env.CLINADMIN_TEST_CACHE_HOME;
  if (cache !== undefined) rmSync(cache, { recursive: true, force: true });
  const left = readdirSync(tmp);
  const running = leftProcesses(tmp);
  rmSync(tmp, { recursive: true, force: true });
  const problems = [
    ...(left.length > 0 ? [`left in the run's TMPDIR: ${left.join(', ')}`] : []),
    ...(running.length > 0 ? [`processes left running:\n  ${running.join('\n  ')}`] : []),
  ];
  if (problems.length === 0) return;
  // Vitest reports an error in teardown but keeps the exit code of the tests: this run fails too.
  process.exitCode = 1;
  throw new Error(`the tests did not clean up after themselves: ${problems.join('\n')}`);
}
