import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { run } from '../../src/cli.js';
import { clinadmin } from './bin.js';
import { type CliResult, type RunOptions, runCli } from './run-cli.js';
import { tempDirSync } from './tmp.js';

const DIST = fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url));
const load = createRequire(import.meta.url);

/**
 * The CLI as it ships, for tests of what a job says and sends: the built bundle (dist/cli.cjs, what
 * bin/clinadmin.cjs loads) run in this process, so a fault only the bundle has (a chunk that does not load,
 * an import.meta the bundler empties) fails here as it would for a user; with CLINADMIN_TEST_BINARY
 * (test/system/binary.test.ts), the single executable as a process. Same result either way: the exit code
 * and the output as written, the last newline kept.
 */
export async function runShipped(
  argv: string[],
  o: Pick<RunOptions, 'env' | 'cwd' | 'stdin'> = {},
): Promise<CliResult> {
  if (process.env.CLINADMIN_TEST_BINARY) {
    const r = await clinadmin(argv, {
      env: { CLINADMIN_CONFIG_DIR: tempDirSync('clinadmin-config-'), ...o.env },
      ...(o.cwd === undefined ? {} : { cwd: o.cwd }),
      ...(o.stdin === undefined ? {} : { input: o.stdin }),
      stripFinalNewline: false,
    });
    return { code: r.exitCode ?? 1, stdout: String(r.stdout), stderr: String(r.stderr) };
  }
  const built = load(DIST) as { run: typeof run };
  return runCli(argv, { ...o, cli: built.run });
}

/**
 * runShipped, answering as clinadmin() does (exitCode; stdout and stderr without their last newline, as execa
 * strips it): for an e2e file whose server must be a process of its own while its commands need none.
 */
export async function runShippedAsProcess(
  argv: string[],
  o: Pick<RunOptions, 'env' | 'cwd' | 'stdin'> = {},
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const r = await runShipped(argv, o);
  const chomp = (t: string) => t.replace(/\r?\n$/, '');
  return { exitCode: r.code, stdout: chomp(r.stdout), stderr: chomp(r.stderr) };
}
