// Covers: scripts/deb.mjs
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtBeside, distBin, NEXT } from '../helpers/dist-bin.js';
import { listsAsServeHolds } from '../helpers/serve-list.js';
import { terminal } from '../helpers/terminal.js';
import { tempDir } from '../helpers/tmp.js';

// The Debian packages npm run build:binary writes, built here from this tree: checked by Debian's own tools
// (dpkg-deb, lintian, dpkg-shlibdeps, dpkg-parsechangelog), then installed into a throwaway copy of this
// machine (test/helpers/overlay-root.sh: an overlay of / in a mount namespace, every node removed) with apt
// and dpkg as an admin does, and used there by a user without root; never installed on the machine itself.
// The arm64 package goes into an empty root with dpkg --root and runs under qemu-user, as binary.test.ts's.

const root = fileURLToPath(new URL('../..', import.meta.url));
const OVERLAY = join(root, 'test', 'helpers', 'overlay-root.sh');
const NO_NODE = join(root, 'test', 'helpers', 'no-node.sh');
const AS_USER = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--'];
const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';
/** root's PATH, as dpkg wants it (it looks for ldconfig and start-stop-daemon there). */
const ROOT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const ARM64_LIBS = '/usr/aarch64-linux-gnu';
const COMPLETIONS = [
  'usr/share/bash-completion/completions/clinadmin',
  'usr/share/fish/vendor_completions.d/clinadmin.fish',
  'usr/share/zsh/vendor-completions/_clinadmin',
];

const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string; author: string };
/** The newer version the upgrade installs: the patch number one up. */
const next = pkg.version.replace(/(\d+)$/, (n) => String(Number(n) + 1));
let out = '';
const deb = (arch: string, dir = out, version = pkg.version) => join(dir, `clinadmin_${version}_${arch}.deb`);

let done: () => Promise<unknown> = async () => undefined;

beforeAll(async () => {
  ({ out, done } = await distBin());
  // The newer package of the upgrade, built whole: its executable says the newer version.
  await builtBeside(out, NEXT, [['build-binary.mjs', ['--arch', 'x64', '--set-version', next]]]);
}, 1_800_000);
afterAll(() => done());

/** The package's files as tar lists them: type and mode, owner, size, time in seconds, name. */
async function listing(file: string) {
  const r = await execa('sh', ['-c', 'dpkg-deb --fsys-tarfile "$0" | tar -tv --numeric-owner --full-time', file], {
    env: { TZ: 'UTC' },
  });
  return r.stdout.split('\n').map((line) => {
    const [mode, owner, , date, time, ...name] = line.split(/\s+/);
    return { mode, owner, seconds: Date.parse(`${date}T${time}Z`) / 1000, name: name.join(' ') };
  });
}

describe('the Debian packages', () => {
  it('are listed in SHA256SUMS, with the control fields a Debian admin expects', async () => {
    const check = await execa('sha256sum', ['-c', 'SHA256SUMS'], { cwd: out, reject: false });
    expect(check.exitCode, check.stdout).toBe(0);
    expect(check.stdout).toContain(`clinadmin_${pkg.version}_amd64.deb: OK`);
    expect(check.stdout).toContain(`clinadmin_${pkg.version}_arm64.deb: OK`);
    for (const arch of ['amd64', 'arm64']) {
      const fields = (await execa('dpkg-deb', ['-f', deb(arch)])).stdout;
      expect(fields).toMatch(/^Package: clinadmin$/m);
      expect(fields).toMatch(new RegExp(`^Version: ${pkg.version.replace(/\./g, '\\.')}$`, 'm'));
      expect(fields).toMatch(new RegExp(`^Architecture: ${arch}$`, 'm'));
      expect(fields).toContain(`\nMaintainer: ${pkg.author}\n`);
      expect(fields).toMatch(/^Section: utils$/m);
      expect(fields).toMatch(/^Priority: optional$/m);
      // A synopsis, then the extended description (Debian Policy 3.4).
      expect(fields).toMatch(/^Description: \S.{10,78}\n (\S.*\n )+\.\n \S/m);
      // No homepage is known (package.json names none), so none is made up.
      expect(fields).not.toMatch(/^Homepage:/m);
      // Installed-Size is in KiB (Policy 5.6.20): at least the executable's size.
      const exe = (await listing(deb(arch))).find((f) => f.name === './usr/bin/clinadmin');
      const size = Number(/^Installed-Size: (\d+)$/m.exec(fields)?.[1]);
      expect(exe?.mode).toBe('-rwxr-xr-x');
      expect(size).toBeGreaterThan(100_000);
      // Nothing named node: the executable carries its own.
      expect(fields).not.toMatch(/^(Pre-)?Depends:.*\bnode/im);
    }
  });

  it('hold the executable, every man page gzipped, the completions and the docs, owned by root and dated', async () => {
    const commitTime = Number((await execa('git', ['log', '-1', '--format=%ct'], { cwd: root })).stdout);
    const pages = (await readdir(join(root, 'docs', 'man'))).filter((f) => f.endsWith('.1'));
    const expected = [
      'usr/bin/clinadmin',
      ...pages.map((p) => `usr/share/man/man1/${p}.gz`),
      ...COMPLETIONS,
      'usr/share/doc/clinadmin/changelog.gz',
      'usr/share/doc/clinadmin/copyright',
      'usr/share/lintian/overrides/clinadmin',
    ].sort();
    for (const arch of ['amd64', 'arm64']) {
      const files = await listing(deb(arch));
      expect(files.filter((f) => f.mode.startsWith('-')).map((f) => f.name.slice(2))).toEqual(expected);
      // The same inputs make the same archive: names sorted, root's, every time the commit's.
      expect(files.map((f) => f.name)).toEqual(files.map((f) => f.name).sort());
      expect(new Set(files.map((f) => f.owner))).toEqual(new Set(['0/0']));
      expect(new Set(files.map((f) => f.seconds))).toEqual(new Set([commitTime]));
    }
    const dir = await tempDir();
    await execa('dpkg-deb', ['-x', deb('amd64'), dir]);
    const sha = async (file: string) =>
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex');
    expect(await sha(join(dir, 'usr/bin/clinadmin'))).toBe(await sha(join(out, 'clinadmin-linux-x64')));
    for (const page of pages) {
      const gz = await readFile(join(dir, `usr/share/man/man1/${page}.gz`));
      // gzip -n (RFC 1952 2.3.1): no file name (FLG.FNAME) and no time (MTIME 0), so no build date inside.
      expect(gz[3] & 0x08, page).toBe(0);
      expect(gz.readUInt32LE(4), page).toBe(0);
      expect(gunzipSync(gz).toString(), page).toBe(await readFile(join(root, 'docs', 'man', page), 'utf8'));
    }
    for (const [file, path] of [
      ['clinadmin.bash', COMPLETIONS[0]],
      ['clinadmin.fish', COMPLETIONS[1]],
      ['_clinadmin', COMPLETIONS[2]],
    ]) {
      expect(await readFile(join(dir, path), 'utf8')).toBe(await readFile(join(root, 'completions', file), 'utf8'));
    }
    // The changelog as Debian's parser reads it: this version, dated by the commit.
    const changelog = join(dir, 'changelog');
    await writeFile(changelog, gunzipSync(await readFile(join(dir, 'usr/share/doc/clinadmin/changelog.gz'))));
    const parsed = (await execa('dpkg-parsechangelog', ['-l', changelog])).stdout;
    expect(parsed).toMatch(/^Source: clinadmin$/m);
    expect(parsed).toContain(`\nVersion: ${pkg.version}\n`);
    expect(parsed).toContain(`\nMaintainer: ${pkg.author}\n`);
    expect(parsed).toMatch(new RegExp(`^Timestamp: ${commitTime}$`, 'm'));
    // The copyright file in the machine-readable format: the project's licence, each bundled package's
    // (the npm package's THIRD-PARTY-LICENSES.txt names them) and Node's.
    const copyright = await readFile(join(dir, 'usr/share/doc/clinadmin/copyright'), 'utf8');
    expect(copyright).toMatch(
      /^Format: https:\/\/www\.debian\.org\/doc\/packaging-manuals\/copyright-format\/1\.0\/\n/,
    );
    expect(copyright).toMatch(/^Files: \*\nCopyright: .+\nLicense: MIT\n MIT License\n/m);
    const notices = await readFile(join(root, 'dist', 'THIRD-PARTY-LICENSES.txt'), 'utf8');
    const bundled = notices.split(`\n${'-'.repeat(72)}\n\n`).map((n) => n.split(' ')[0]);
    expect(bundled).toContain('commander');
    for (const name of bundled) expect(copyright).toContain(`\nFiles: node_modules/${name}/*\n`);
    expect(copyright).toMatch(/^Files: node\/\*\n(.+\n)+License: Node\.js\n Node\.js is licensed for use as follows:/m);
  });

  it('pass lintian: no error and no warning, and each override is explained in docs/connecting.md', async () => {
    const docs = await readFile(join(root, 'docs', 'connecting.md'), 'utf8');
    const lint = async (arch: string) => {
      // Its working files in a folder of its own, removed after (lintian leaves some in TMPDIR).
      const r = await execa('lintian', ['--display-info', '--fail-on', 'error,warning', deb(arch)], {
        reject: false,
        env: { TMPDIR: await tempDir() },
      });
      return { arch: `${arch}: ${r.stderr}`, exitCode: r.exitCode, tags: r.stdout.split('\n').filter((l) => l !== '') };
    };
    for (const { arch, exitCode, tags } of await Promise.all([lint('amd64'), lint('arm64')])) {
      expect(
        tags.filter((t) => /^[EW]: /.test(t)),
        arch,
      ).toEqual([]);
      expect(exitCode, `${arch}\n${tags.join('\n')}`).toBe(0);
      // Every override is used (lintian says so of one that is not) and each one's reason is in the docs.
      expect(
        tags.filter((t) => /unused-override|mismatched-override/.test(t)),
        arch,
      ).toEqual([]);
    }
    const dir = await tempDir();
    await execa('dpkg-deb', ['-x', deb('amd64'), dir]);
    const overrides = await readFile(join(dir, 'usr/share/lintian/overrides/clinadmin'), 'utf8');
    for (const reason of overrides.split('\n').filter((l) => l.startsWith('# '))) {
      expect(docs, reason).toContain(reason.slice(2));
    }
  }, 900_000);

  it('depends on the shared libraries dpkg-shlibdeps names for the executable, and on no Node', async () => {
    // Debian Policy 8.6.1: dpkg-shlibdeps names a binary's library packages from their symbols files.
    const dir = await tempDir();
    await mkdir(join(dir, 'debian'));
    await writeFile(join(dir, 'debian', 'control'), 'Source: clinadmin\n\nPackage: clinadmin\nArchitecture: any\n');
    const shlibs = await execa('dpkg-shlibdeps', ['-O', join(out, 'clinadmin-linux-x64')], { cwd: dir });
    const depends = (arch: string) => execa('dpkg-deb', ['-f', deb(arch), 'Depends']).then((r) => r.stdout);
    expect(`shlibs:Depends=${await depends('amd64')}`).toBe(shlibs.stdout);
    // arm64's symbols files are not on this machine: its Node needs the same libraries and no newer symbol
    // versions, so the same names and versions hold.
    const needs = async (file: string) => {
      const { stdout } = await execa('readelf', ['-dV', '--wide', file]);
      const libs = [...stdout.matchAll(/\(NEEDED\).*\[(.+)\]/g)].map((m) => m[1]).filter((l) => !l.startsWith('ld-'));
      const versions = new Set([...stdout.matchAll(/Name: ([A-Z]+_[\d.]+)/g)].map((m) => m[1]));
      return { libs, versions };
    };
    const [x64, arm64] = await Promise.all([
      needs(join(out, 'clinadmin-linux-x64')),
      needs(join(out, 'clinadmin-linux-arm64')),
    ]);
    expect(arm64.libs).toEqual(x64.libs);
    expect([...arm64.versions].filter((v) => !x64.versions.has(v))).toEqual([]);
    expect(await depends('arm64')).toBe(await depends('amd64'));
  });
});

/** A copy of this machine to install into (overlay-root.sh), and commands run in it as root or as a user. */
async function throwawaySystem() {
  const top = await mkdtemp(join(tmpdir(), 'clinadmin-root-'));
  const holder = execa(OVERLAY, [top, out], { reject: false, buffer: false }) as unknown as ResultPromise;
  const pid = await new Promise<string>((resolve, reject) => {
    let said = '';
    holder.stdout?.on('data', (d: Buffer) => {
      said += d.toString();
      const m = /^ready (\d+)$/m.exec(said);
      if (m) resolve(m[1]);
    });
    void holder.then((r) => reject(new Error(`overlay-root.sh exited ${r.exitCode}: ${r.stderr}`)));
  });
  const enter = ['nsenter', '-t', pid, '-m', '-r', '-w', '--'];
  /** A user's session there: no root, a home of its own, the system's PATH (no node is on it). */
  const user = (env: Record<string, string> = {}) => [
    ...enter,
    ...AS_USER,
    'env',
    'HOME=/home/user',
    `PATH=${SYSTEM_PATH}`,
    'LANG=C.UTF-8',
    ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
  ];
  return {
    top,
    user,
    asRoot: (args: string[]) =>
      execa(enter[0], [...enter.slice(1), ...args], { reject: false, env: { PATH: ROOT_PATH } }),
    asUser: (script: string, env: Record<string, string> = {}) => {
      const [cmd, ...args] = user(env);
      return execa(cmd, [...args, 'sh', '-c', script], { reject: false, extendEnv: false });
    },
    /** Runs in the namespace outside the copy, where its upper layer (TOP/upper) is seen. */
    outside: (args: string[]) => execa('nsenter', ['-t', pid, '-m', '--', ...args], { reject: false }),
    async stop() {
      holder.kill('SIGTERM');
      await holder;
      await rm(top, { recursive: true, force: true });
    },
  };
}

describe('the amd64 package installed into a throwaway Debian system', () => {
  let sys: Awaited<ReturnType<typeof throwawaySystem>>;
  beforeAll(async () => {
    sys = await throwawaySystem();
  });
  afterAll(() => sys?.stop());

  it('installs with apt as README says; a user without root or Node runs it, reads its pages, completes', async () => {
    const install = await sys.asRoot(['apt', 'install', '-y', `./mnt/debs/clinadmin_${pkg.version}_amd64.deb`]);
    expect(install.exitCode, install.stderr).toBe(0);
    const none = await sys.asUser('command -v node || echo none; id -u');
    expect(none.stdout).toBe('none\n65534');
    const v = await sys.asUser('command -v clinadmin; clinadmin --version');
    expect([v.exitCode, v.stdout, v.stderr]).toEqual([0, `/usr/bin/clinadmin\n${pkg.version}`, '']);

    // A real command against serve (the repo's build, on this machine's loopback, which the copy shares).
    await listsAsServeHolds((env) => sys.asUser('clinadmin measures list -o json', env));

    // man finds the page where the package put it, with no MANPATH.
    const man = await sys.asUser('man clinadmin-measures-import', { MANPAGER: 'cat', MANWIDTH: '100' });
    expect(man.exitCode, man.stderr).toBe(0);
    expect(man.stdout).toMatch(/^NAME\n +clinadmin-measures-import +- +Create +or +update +measures/m);
    expect(man.stdout).toContain('--dry-run');

    // fish loads vendor completions by itself.
    const fish = await sys.asUser('fish -c \'complete -C "clinadmin meas"\'');
    expect([fish.stderr, fish.stdout.split('\n').map((l) => l.split('\t')[0])]).toEqual(['', ['measures']]);

    // bash with bash-completion loads the package's script by the command's name, at the first TAB.
    const bash = await terminal(120, {}, 30, { shell: [...sys.user(), 'bash', '--norc', '--noprofile'] });
    await bash.type('source /usr/share/bash-completion/bash_completion && echo READY', 'Enter');
    await expect.poll(bash.screen, { timeout: 10_000 }).toMatch(/^READY$/m);
    await bash.clear();
    await bash.type('-l', 'clinadmin meas');
    await bash.type('Tab');
    await expect.poll(bash.screen, { timeout: 20_000 }).toMatch(/^\$ clinadmin measures *$/m);

    // zsh finds _clinadmin in its default fpath (Debian's vendor-completions) once compinit runs.
    const zsh = await terminal(120, {}, 30, { shell: [...sys.user(), 'zsh', '-f'] });
    await zsh.type('autoload -Uz compinit && compinit -u -D && echo READY', 'Enter');
    await expect.poll(zsh.screen, { timeout: 10_000 }).toMatch(/^READY$/m);
    await zsh.clear();
    await zsh.type('-l', 'clinadmin mea');
    await zsh.type('Tab');
    await expect.poll(zsh.screen, { timeout: 20_000 }).toMatch(/clinadmin measures *$/m);
  }, 300_000);

  it('upgrades in place to a newer version, whose files replace every one of the old', async () => {
    const upgrade = await sys.asRoot(['dpkg', '-i', `/mnt/debs/next/clinadmin_${next}_amd64.deb`]);
    expect(upgrade.exitCode, upgrade.stderr).toBe(0);
    // dpkg-query's own format: ${Version} is its field, not a template.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's format, not JavaScript's
    const version = await sys.asRoot(['dpkg-query', '-W', '-f', '${Version}', 'clinadmin']);
    expect(version.stdout).toBe(next);
    const v = await sys.asUser('clinadmin --version; zcat /usr/share/doc/clinadmin/changelog.gz | head -1');
    expect(v.stdout).toBe(`${next}\nclinadmin (${next}) unstable; urgency=medium`);
    // dpkg --verify checks every installed file against the new package's md5sums: none is the old one's.
    const verify = await sys.asRoot(['dpkg', '--verify', 'clinadmin']);
    expect([verify.exitCode, verify.stdout]).toEqual([0, '']);
  }, 120_000);

  it('dpkg -r removes every file it put there', async () => {
    const listed = (await sys.asRoot(['dpkg', '-L', 'clinadmin'])).stdout.split('\n').filter((p) => p.startsWith('/'));
    expect(listed).toContain('/usr/bin/clinadmin');
    const remove = await sys.asRoot(['dpkg', '-r', 'clinadmin']);
    expect(remove.exitCode, remove.stderr).toBe(0);
    // What is left of its paths is what this machine (the copy's lower layer) had before: shared folders.
    const left = await sys.asRoot(['sh', '-c', 'for p; do [ ! -e "$p" ] || echo "$p"; done', 'left', ...listed]);
    expect(left.stdout.split('\n').filter((p) => p !== '')).toEqual(listed.filter((p) => existsSync(p)));
    expect(listed.filter((p) => existsSync(p))).not.toContain('/usr/bin/clinadmin');
    // The copy's changes under /usr: no file, and no folder this machine does not have.
    const changed = await sys.outside(['find', join(sys.top, 'upper', 'usr'), '-mindepth', '1']);
    const paths = changed.stdout.split('\n').filter((p) => p !== '');
    const inUsr = (p: string) => p.slice(join(sys.top, 'upper').length);
    expect(paths.map(inUsr).filter((p) => !existsSync(p))).toEqual([]);
    // Files and links only: the node the copy had removed is a whiteout (a device) there.
    const files = await sys.outside([
      'find',
      join(sys.top, 'upper', 'usr'),
      '(',
      '-type',
      'f',
      '-o',
      '-type',
      'l',
      ')',
    ]);
    expect(files.stdout).toBe('');
  }, 120_000);
});

describe('the arm64 package installed into an empty root under qemu-user', () => {
  it('installs with dpkg --root and a fresh database, runs there, and dpkg -r leaves nothing', async () => {
    const dir = await tempDir();
    await chmod(dir, 0o755);
    const system = join(dir, 'root');
    await mkdir(join(system, 'var', 'lib', 'dpkg', 'info'), { recursive: true });
    await mkdir(join(system, 'var', 'lib', 'dpkg', 'updates'));
    await writeFile(join(system, 'var', 'lib', 'dpkg', 'status'), '');
    const dpkg = (args: string[]) =>
      // Its log too goes nowhere on this machine (dpkg.cfg names /var/log/dpkg.log, outside --root).
      execa('dpkg', [`--root=${system}`, '--log=/dev/null', '--force-script-chrootless', ...args], {
        reject: false,
      });
    expect((await dpkg(['--add-architecture', 'arm64'])).exitCode).toBe(0);
    // The libraries it depends on are the cross ones here, not packages of this root: their check is amd64's.
    const install = await dpkg(['--force-depends', '-i', deb('arm64')]);
    expect(install.exitCode, install.stderr).toBe(0);
    const exe = join(system, 'usr', 'bin', 'clinadmin');
    const home = join(dir, 'home');
    await mkdir(home);
    await chown(home, 65534, 65534);
    const run = (args: string[], env: Record<string, string> = {}) =>
      execa(
        NO_NODE,
        [
          root,
          ...AS_USER,
          'env',
          '-i',
          `PATH=${SYSTEM_PATH}`,
          `HOME=${home}`,
          ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
          'qemu-aarch64-static',
          '-L',
          ARM64_LIBS,
          exe,
          ...args,
        ],
        { reject: false, timeout: 120_000 },
      );
    const v = await run(['--version']);
    expect([v.exitCode, v.stdout, v.stderr]).toEqual([0, pkg.version, '']);
    await listsAsServeHolds((env) => run(['measures', 'list', '-o', 'json'], env));
    const man = await execa('man', ['-l', join(system, 'usr/share/man/man1/clinadmin-measures-import.1.gz')], {
      env: { MANPAGER: 'cat', MANWIDTH: '100' },
    });
    expect(man.stdout).toMatch(/^NAME\n +clinadmin-measures-import/m);
    const remove = await dpkg(['-r', 'clinadmin']);
    expect(remove.exitCode, remove.stderr).toBe(0);
    const left = await execa('find', [system, '-path', join(system, 'var', 'lib', 'dpkg'), '-prune', '-o', '-print']);
    expect(left.stdout.split('\n').sort()).toEqual([system, join(system, 'var'), join(system, 'var', 'lib')]);
  }, 600_000);
});
