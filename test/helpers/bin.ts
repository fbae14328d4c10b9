import { fileURLToPath } from 'node:url';
import { execa, type Options, type ResultPromise } from 'execa';
import { afterEveryFile, afterEveryTest, inTest, ORDER } from './cleanup.js';
import { tempDirSync } from './tmp.js';

// A process a test started and left running (a server it did not stop) is killed when the test ends, one
// started in beforeAll when the file ends: none outlives its test file.
const byTest = new Set<ResultPromise>();
const byFile = new Set<ResultPromise>();
const killAll = async (procs: Set<ResultPromise>) => {
  const left = [...procs];
  procs.clear();
  for (const p of left) p.kill('SIGKILL');
  await Promise.allSettled(left);
};
afterEveryTest(ORDER.processes, () => killAll(byTest));
afterEveryFile(ORDER.processes, () => killAll(byFile));

export const BIN = fileURLToPath(new URL('../../bin/clinadmin.cjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NO_NODE = fileURLToPath(new URL('./no-node.sh', import.meta.url));

/**
 * The command that runs clinadmin: the built package under Node, or with CLINADMIN_TEST_BINARY the single
 * executable at that path, and with CLINADMIN_TEST_NO_NODE=1 as well that file where no node can be found
 * (no-node.sh: a mount namespace, so root), as test/system/binary.test.ts runs a named set of these tests.
 */
export function launcher(): string[] {
  const binary = process.env.CLINADMIN_TEST_BINARY;
  if (!binary) return ['node', BIN];
  return process.env.CLINADMIN_TEST_NO_NODE === '1' ? [NO_NODE, ROOT, binary] : [binary];
}

/** Runs the built binary as a user would, with no terminal and no inherited CLINADMIN_* settings. */
export function clinadmin(args: string[], options: Options = {}): ResultPromise<{ reject: false }> {
  // Config and cache go to folders of this run's own (mkdtemp), never those of whoever runs the tests: a
  // test gives CLINADMIN_CONFIG_DIR or XDG_CACHE_HOME where it wants one of its own. The compile cache is
  // the run's one (global-tmp.ts), so V8 compiles the bundle once a run, not once a process.
  const env: Record<string, string | undefined> = {
    ...process.env,
    NO_COLOR: '1',
    CI: '1',
    XDG_CONFIG_HOME: tempDirSync('clinadmin-config-'),
    XDG_CACHE_HOME: process.env.CLINADMIN_TEST_CACHE_HOME ?? tempDirSync('clinadmin-cache-'),
  };
  for (const key of Object.keys(env)) if (key.startsWith('CLINADMIN_')) delete env[key];
  const [command, ...pre] = launcher();
  const proc = execa(command, [...pre, ...args], {
    reject: false,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : {}),
    ...options,
    env: { ...env, ...(options.env as Record<string, string> | undefined) },
    extendEnv: false,
  }) as unknown as ResultPromise<{ reject: false }>;
  const owner = inTest() ? byTest : byFile;
  owner.add(proc);
  void proc.finally(() => owner.delete(proc)).catch(() => undefined);
  return proc;
}

/** Starts `clinadmin serve` as its own process and resolves once it prints its URL. */
export async function serveProcess(
  args: string[],
  options: Options = {},
): Promise<{ url: string; proc: ResultPromise; stderr: () => string }> {
  const proc = clinadmin(['serve', '--port', '0', ...args], { ...options, buffer: true }) as unknown as ResultPromise;
  let err = '';
  proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    void proc.then((r) => reject(new Error(`serve exited with ${r.exitCode}: ${err}`)));
  });
  return { url, proc, stderr: () => err };
}
