import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { expect } from 'vitest';

// The executables, packages and images the system tier tests. .ci/run builds them once a run, with the
// second build and the newer package the tests compare against, and names the folder in
// CLINADMIN_TEST_DIST_BIN (they do not depend on the Node the tests run on); without it, a test builds its own.

const root = fileURLToPath(new URL('../..', import.meta.url));
const GIVEN = process.env.CLINADMIN_TEST_DIST_BIN;

/** Where .ci/run puts the second build, in a folder of another depth (the same bytes wherever built). */
export const AGAIN = join('again', 'another', 'folder');
/** Where .ci/run puts the newer x64 package the upgrade test installs. */
export const NEXT = 'next';

async function script(name: string, args: string[]): Promise<void> {
  const r = await execa(process.execPath, [join(root, 'scripts', name), ...args], { cwd: root, reject: false });
  expect(r.exitCode, r.stderr).toBe(0);
}

/** A dist-bin folder: the run's, or one built now with `build` (the scripts' arguments after --out). */
export async function distBin(builds: [script: string, args: string[]][] = [['build-binary.mjs', []]]) {
  if (GIVEN) return { out: GIVEN, given: true, done: async () => undefined };
  const out = await mkdtemp(join(tmpdir(), 'clinadmin-dist-bin-'));
  for (const [name, args] of builds) await script(name, ['--out', out, ...args]);
  return { out, given: false, done: () => rm(out, { recursive: true, force: true }) };
}

/** A build of `out`'s kind in `sub` beneath it: the run's where it made one, else built now. */
export async function builtBeside(out: string, sub: string, builds: [script: string, args: string[]][]) {
  const dir = join(out, sub);
  if (!GIVEN) for (const [name, args] of builds) await script(name, ['--out', dir, ...args]);
  return dir;
}
