import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** `npm pack` into `work`: the tarball's name. */
export async function pack(work: string): Promise<string> {
  // --ignore-scripts: the suite already built dist/, and prepack's rebuild would pull it from under the other tests.
  // TMPDIR: npm keeps a compile cache there, which would outlive the test.
  await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--silent'], {
    cwd: root,
    env: { TMPDIR: work },
  });
  return (await readdir(work)).find((f) => f.endsWith('.tgz'))!;
}
