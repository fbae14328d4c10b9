import { readdirSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { binOnPath } from '../helpers/logged-in.js';
import { tempDir } from '../helpers/tmp.js';

// Every ```sh example of the README and docs/ runs as written, a page's blocks in order in one bash -e
// session (a later block may use what an earlier one made, as a reader would), in a fresh folder with
// its own HOME, config and cache, the built `clinadmin` first on PATH. So no example can rot.

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Examples that cannot run inside a test: installing, and the test commands themselves. Listed exactly. */
const NOT_RUN = [
  'npm ci && npm run demo     # set up, then run the main job on the bundled server',
  'npm test                   # build, then the tests that need Node alone (any user)',
  'npm run test:system        # build, then the tests that need root, tmux, zsh, fish, python3, curl or man',
  'npm pack && npm install -g ./clinadmin-*.tgz    # the `clinadmin` command, with its man pages',
];

/** The README and every page of docs/ (the generated reference holds no examples of its own). */
const PAGES = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

/** A page's sh blocks, each as its lines; lines of NOT_RUN left out and counted. */
function examples(text: string): { blocks: string[]; skipped: string[] } {
  const blocks: string[] = [];
  const skipped: string[] = [];
  for (const m of text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    const lines = m[1].split('\n').filter((l) => {
      if (!NOT_RUN.includes(l)) return true;
      skipped.push(l);
      return false;
    });
    if (lines.some((l) => l.trim() !== '')) blocks.push(lines.join('\n'));
  }
  return { blocks, skipped };
}

describe('the shell examples of the README and docs/', () => {
  it('leaves out only the install and test commands it lists', async () => {
    const skipped: string[] = [];
    for (const page of PAGES) skipped.push(...examples(await readFile(join(root, page), 'utf8')).skipped);
    expect(skipped.sort()).toEqual([...NOT_RUN].sort());
  });

  it('has a page for each everyday job, each with examples', async () => {
    for (const page of ['connecting', 'reading', 'writing', 'catalogs', 'ci', 'serve']) {
      expect(examples(await readFile(join(root, `docs/${page}.md`), 'utf8')).blocks.length, page).toBeGreaterThan(0);
    }
  });

  // A page without examples (the promises table, the contributors' page) passes with nothing to run.
  it.each(PAGES)('%s runs as written', async (page) => {
    const { blocks } = examples(await readFile(join(root, page), 'utf8'));
    if (blocks.length === 0) return;
    const dir = await tempDir();
    const home = join(dir, 'home');
    const work = join(dir, 'work');
    await Promise.all([mkdir(home), mkdir(work)]);
    // A background server a page starts is stopped when its session ends, whatever happened.
    const script = ["trap 'kill $(jobs -p) 2> /dev/null; wait' EXIT", ...blocks].join('\n');
    const r = await execa('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd: work,
      env: {
        PATH: `${await binOnPath()}:${process.env.PATH}`,
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        XDG_CACHE_HOME: join(home, '.cache'),
        NO_COLOR: '1',
        LANG: 'C.UTF-8',
      },
      extendEnv: false,
      reject: false,
      timeout: 120_000,
    });
    expect(r.exitCode, `${page}\n--- stdout (end)\n${r.stdout.slice(-600)}\n--- stderr\n${r.stderr.slice(-2000)}`).toBe(
      0,
    );
  });
});
