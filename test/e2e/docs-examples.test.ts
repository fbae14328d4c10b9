// Covers: README.md docs/
import { readdirSync } from 'node:fs';
import { chmod, copyFile, cp, link, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The README runs from the top in one bash -e session, as a newcomer types it after the Quickstart's
// set-up: the Install section's recipe installs `clinadmin` under their own HOME, and every later block
// uses that command. Every page of docs/ runs its ```sh blocks in order in a session of its own. Each
// session is a user without root (as root, `nobody` through setpriv), with no LANG, a fresh HOME and
// runtime folder, and only the system's PATH and Node's folder. So no example can rot.

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The Quickstart's set-up: the clone is installed and built before the tests; the session runs the demo. */
const SET_UP = 'npm ci && npm run demo     # set up, then run the main job on the bundled server';
/**
 * Examples that cannot run inside a test: the test commands themselves, and building and installing the
 * single executable (test/system/binary.test.ts builds it and runs it where no node is) and its Debian
 * package (test/system/deb.test.ts). Listed exactly.
 */
const NOT_RUN = [
  SET_UP,
  'npm test                   # build, then the tests that need Node alone (any user)',
  'npm run test:system        # build, then the tests that need root, tmux, zsh, fish, python3, curl or man',
  'npm run build:binary    # dist-bin/: clinadmin-linux-x64, clinadmin-linux-arm64, clinadmin-man.tar.gz, SHA256SUMS',
  'sha256sum -c --ignore-missing SHA256SUMS    # each file you downloaded, OK; anything else: do not run it',
  'install -m 0755 clinadmin-linux-x64 ~/.local/bin/clinadmin    # any folder on PATH',
  'mkdir -p ~/.local/share/man && tar -xzf clinadmin-man.tar.gz -C ~/.local/share/man    # man clinadmin',
  // Installing the Debian package needs root: test/system/deb.test.ts installs it into a throwaway system.
  'sudo apt install ./clinadmin_0.1.0_amd64.deb    # on arm64: ./clinadmin_0.1.0_arm64.deb',
  // Building and running the OCI image needs root and podman: test/system/image.test.ts runs it so.
  'npm run build:image     # and dist-bin/: clinadmin-image-linux-amd64.tar, clinadmin-image-linux-arm64.tar',
  'podman load -i dist-bin/clinadmin-image-linux-amd64.tar    # Loaded image: localhost/clinadmin:0.1.0',
  'podman run -d --name clinadmin -p 127.0.0.1:4010:4010 -v clinadmin-data:/data \\',
  '  -e CLINADMIN_SERVE_TOKENS=ci-token:acc_ci:admin -v ./seed/state.json:/seed/state.json:ro \\',
  '  localhost/clinadmin:0.1.0 serve --host 0.0.0.0 --port 4010 --data /data/clinadmin-data.json \\',
  '  --load /seed/state.json',
  'podman stop -t 5 clinadmin    # SIGTERM: the data stays in the volume clinadmin-data for the next run',
];
/** Pages that hold no example to run, named here so that a page losing its examples fails. */
const NO_EXAMPLES = ['docs/contributing.md', 'docs/promises.md'];

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

// What a clone holds after the Quickstart's set-up that the examples use: the package as `npm pack`
// packs it (built) and the demo script; a copy, so that a user without root can own it.
const CLONE_FILES = ['package.json', 'README.md', 'bin', 'dist', 'completions', 'docs', 'scripts'];
const NOBODY = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--'];

let top = '';
let clone = '';
/** Node's folder first, then the system's: npm and the tools a login has. */
let systemPath = `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`;
/** The command that runs a session as a user without root: none when we are not root. */
let asUser: string[] = [];

beforeAll(async () => {
  // As root the sessions run as nobody, who cannot enter the run's own TMPDIR (0700, root's): /tmp then.
  const asRoot = process.getuid?.() === 0;
  top = await mkdtemp(join(asRoot ? '/tmp' : tmpdir(), 'clinadmin-docs-'));
  clone = join(top, 'clinadmin');
  for (const f of CLONE_FILES) await cp(join(root, f), join(clone, f), { recursive: true });
  if (!asRoot) return;
  // Root in CI: drop to nobody. Its Node may sit under /root, which nobody cannot enter, so nobody gets
  // this Node through a folder of its own (a hard link, else a copy), outside what it is given to own.
  const node = join(top, 'node');
  await mkdir(node, { mode: 0o755 });
  await chmod(top, 0o755);
  await link(process.execPath, join(node, 'node')).catch(() => copyFile(process.execPath, join(node, 'node')));
  systemPath = `${node}:/usr/local/bin:/usr/bin:/bin`;
  await execa('chown', ['-R', '65534:65534', clone]);
  const which = await execa('sh', ['-c', 'command -v setpriv'], { reject: false });
  if (which.exitCode !== 0) return; // no setpriv (not util-linux): the sessions run as is
  asUser = NOBODY;
}, 60_000);

afterAll(async () => {
  if (top) await rm(top, { recursive: true, force: true });
});

/** Runs a script in bash -e as a newcomer's fresh login: own HOME, no LANG, the system's PATH. */
async function session(name: string, script: string, path: string) {
  const home = join(top, name, 'home');
  const work = join(top, name, 'work');
  // A login's own runtime folder (/run/user/UID), where serve keeps its locks by inode: sessions at once
  // do not share one in /tmp.
  const runtime = join(top, name, 'run');
  await mkdir(home, { recursive: true });
  await mkdir(work, { recursive: true });
  await mkdir(runtime, { mode: 0o700 });
  if (asUser.length > 0) await execa('chown', ['-R', '65534:65534', join(top, name)]);
  // A background server a page starts is stopped when its session ends, whatever happened.
  const full = ["trap 'kill $(jobs -p) 2> /dev/null; wait' EXIT", script].join('\n');
  const argv = [...asUser, 'bash', '-e', '-o', 'pipefail', '-c', full];
  const r = await execa(argv[0], argv.slice(1), {
    cwd: name === 'README' ? clone : work,
    // Only what a login gives, and npm's own update check off (it would ask the registry on every run).
    env: {
      PATH: path,
      HOME: home,
      USER: 'newcomer',
      XDG_RUNTIME_DIR: runtime,
      NO_COLOR: '1',
      npm_config_update_notifier: 'false',
    },
    extendEnv: false,
    reject: false,
    // Catches a hang only: the sessions run at once, and on a busy machine each takes minutes.
    timeout: 270_000,
  });
  const who = asUser.length > 0 ? 'nobody' : `uid ${process.getuid?.()}`;
  const log = `${name} as ${who}\n--- stdout (end)\n${r.stdout.slice(-800)}\n--- stderr\n${r.stderr.slice(-2000)}`;
  return { ...r, log, home };
}

describe('the shell examples of the README and docs/', () => {
  it('leaves out only the test commands it lists, and stands in for the set-up', async () => {
    const skipped: string[] = [];
    for (const page of PAGES) skipped.push(...examples(await readFile(join(root, page), 'utf8')).skipped);
    expect(skipped.sort()).toEqual([...NOT_RUN].sort());
  });

  it('has examples on every page but those listed as having none', async () => {
    const without: string[] = [];
    for (const page of PAGES) {
      if (examples(await readFile(join(root, page), 'utf8')).blocks.length === 0) without.push(page);
    }
    expect(without).toEqual(NO_EXAMPLES);
  });

  // The sessions share nothing (each its own HOME and work folder, every server on port 0), so they run at
  // once: one after another they were the suite's longest file, a minute alone at the end of a run.
  it.concurrent('runs the README from the top in one shell, clinadmin installed by its Install recipe', async ({
    expect,
  }) => {
    const { blocks } = examples(await readFile(join(root, 'README.md'), 'utf8'));
    // The set-up's npm ci and build ran before the tests (npm test builds first); its demo runs here, and
    // `npm pack` packs that build rather than building again (npm's ignore-scripts skips only prepack).
    const script = [
      'npm run demo > demo.out',
      'export npm_config_ignore_scripts=true',
      ...blocks,
      'echo "clinadmin is $(command -v clinadmin)"; echo "uid=$(id -u)"',
    ].join('\n');
    const r = await session('README', script, systemPath);
    expect(r.exitCode, r.log).toBe(0);
    // After login, the walk-through runs on the stored profile, not on variables exported before it.
    expect(r.stdout, r.log).toMatch(/"sources": \{\s*"baseUrl": "profile default",\s*"token": "profile default"/);
    // The jobs ran the clinadmin the Install recipe put under the newcomer's HOME, not another one.
    expect(r.stdout, r.log).toContain(`clinadmin is ${r.home}/.local/bin/clinadmin`);
    // As root, the session ran as nobody, so that nothing in it needed root.
    if (asUser.length > 0) expect(r.stdout, r.log).toContain('uid=65534');
  }, 300_000);

  it.concurrent.for(PAGES.filter((p) => p !== 'README.md' && !NO_EXAMPLES.includes(p)))(
    '%s runs as written',
    { timeout: 300_000 },
    async (page, { expect }) => {
      const { blocks } = examples(await readFile(join(root, page), 'utf8'));
      const name = page.replace(/\W/g, '-');
      const bin = join(top, `${name}-bin`);
      await mkdir(bin);
      await writeFile(join(bin, 'clinadmin'), `#!/bin/sh\nexec node ${join(clone, 'bin/clinadmin.cjs')} "$@"\n`);
      await chmod(join(bin, 'clinadmin'), 0o755);
      const r = await session(name, blocks.join('\n'), `${bin}:${systemPath}`);
      expect(r.exitCode, r.log).toBe(0);
    },
  );
});
