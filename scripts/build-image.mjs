// npm run build:image: an OCI image per architecture of the single executables npm run build:binary wrote,
// as dist-bin/clinadmin-image-linux-{amd64,arm64}.tar (an OCI archive `podman load` reads), added to its
// SHA256SUMS. The distroless way: the executable and the shared libraries it links, taken from Debian 12's
// packages (fetched once by apt into a cache folder outside the repo, with their copyright files), no shell,
// no package manager; built from the repo's Containerfile by buildah in a storage folder of its own. The same
// commit, executables and cached packages give the same image digest: every time is the source's date.
//
// Usage: node scripts/build-image.mjs [--out DIR] [--arch x64,arm64] [--source URL]
// --source is the org.opencontainers.image.source label; without it, the URL of the git remote `origin`, else
// file:// and this folder (a warning says so): a release passes the URL it publishes the source at.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ARCHES, seaNodeCache } from './build-binary.mjs';
import { DEB_ARCH, sourceCommit, sourceDateEpoch } from './deb.mjs';

const root = resolve(import.meta.dirname, '..');

/** The libraries the executable links (readelf -d's NEEDED; deb.mjs's DEPENDS names their packages). */
const LIBRARIES = [
  'libatomic.so.1',
  'libc.so.6',
  'libdl.so.2',
  'libgcc_s.so.1',
  'libm.so.6',
  'libpthread.so.0',
  'libstdc++.so.6',
];
/** The packages that hold them; gcc-12-base holds the copyright file the gcc libraries' docs link to. */
const PACKAGES = ['gcc-12-base', 'libatomic1', 'libc6', 'libgcc-s1', 'libstdc++6'];
const TRIPLET = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' };
/** The dynamic loader the executable names (its PT_INTERP). */
const LOADER = { x64: 'lib64/ld-linux-x86-64.so.2', arm64: 'lib/ld-linux-aarch64.so.1' };
/** The distroless images' nonroot user, which the image runs as and which owns /data. */
const NONROOT = 65532;

/** The OCI archive of one architecture, as dist-bin names it. */
const imageFile = (arch) => `clinadmin-image-linux-${DEB_ARCH[arch]}.tar`;

/**
 * Debian 12's packages of the libraries for one architecture, downloaded once by apt with a configuration of
 * its own (the machine's sources and architectures untouched), checked against Debian's signed archive.
 */
function debianPackages(arch, env = process.env) {
  const dir = join(dirname(seaNodeCache(env)), `debian-12-${DEB_ARCH[arch]}`);
  const have = () => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.deb')) : []);
  if (PACKAGES.every((p) => have().some((f) => f.startsWith(`${p}_`)))) return have().map((f) => join(dir, f));
  const apt = `${dir}.apt`;
  rmSync(apt, { recursive: true, force: true });
  for (const d of ['lists/partial', 'cache/archives/partial', 'parts', 'get'])
    mkdirSync(join(apt, d), { recursive: true });
  writeFileSync(join(apt, 'status'), '');
  const keyring = '[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]';
  writeFileSync(
    join(apt, 'sources.list'),
    [
      `deb ${keyring} http://deb.debian.org/debian bookworm main`,
      `deb ${keyring} http://deb.debian.org/debian bookworm-updates main`,
      `deb ${keyring} http://deb.debian.org/debian-security bookworm-security main`,
      '',
    ].join('\n'),
  );
  const options = {
    'Dir::Etc::SourceList': join(apt, 'sources.list'),
    'Dir::Etc::SourceParts': join(apt, 'parts'),
    'Dir::State::Lists': join(apt, 'lists'),
    'Dir::State::status': join(apt, 'status'),
    'Dir::Cache': join(apt, 'cache'),
    'APT::Architecture': DEB_ARCH[arch],
    'APT::Architectures::': DEB_ARCH[arch],
    'APT::Sandbox::User': 'root',
    'Debug::NoLocking': '1',
  };
  const o = Object.entries(options).flatMap(([k, v]) => ['-o', `${k}=${v}`]);
  execFileSync('apt-get', [...o, '-qq', 'update'], { stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync('apt-get', [...o, '-qq', 'download', ...PACKAGES], {
    cwd: join(apt, 'get'),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // The folder appears whole or not at all, as the pinned Nodes' does.
  rmSync(dir, { recursive: true, force: true });
  execFileSync('mv', ['-T', join(apt, 'get'), dir]);
  rmSync(apt, { recursive: true, force: true });
  return have().map((f) => join(dir, f));
}

/** Copies a path of the extracted packages into the image's tree, a symbolic link with what it points to. */
function take(from, to, path) {
  mkdirSync(dirname(join(to, path)), { recursive: true });
  execFileSync('cp', ['-a', join(from, path), join(to, path)]);
  if (!lstatSync(join(from, path)).isSymbolicLink()) return;
  const link = readlinkSync(join(from, path));
  take(from, to, link.startsWith('/') ? link.slice(1) : join(dirname(path), link));
}

/**
 * The image's files as one tar, sorted, every time the source's date: the executable, the libraries and the
 * loader, each package's copyright and control fields (/var/lib/dpkg/status.d, where scanners look in
 * distroless images), the users, /tmp, and /data and the home owned by the nonroot user.
 */
function rootfs({ arch, executable, work, epoch }) {
  const debs = debianPackages(arch);
  const all = join(work, `debs-${arch}`);
  const tree = join(work, `root-${arch}`);
  rmSync(all, { recursive: true, force: true });
  rmSync(tree, { recursive: true, force: true });
  for (const d of ['usr/bin', 'etc', 'tmp', 'data', 'home/nonroot', 'var/lib/dpkg/status.d']) {
    mkdirSync(join(tree, d), { recursive: true });
  }
  for (const deb of debs) {
    execFileSync('dpkg-deb', ['-x', deb, all]);
    const name = execFileSync('dpkg-deb', ['-f', deb, 'Package'], { encoding: 'utf8' }).trim();
    writeFileSync(join(tree, 'var/lib/dpkg/status.d', name), execFileSync('dpkg-deb', ['-f', deb]));
    take(all, tree, `usr/share/doc/${name}`);
  }
  // A package's doc folder is its own or a link to gcc-12-base's; of its own, only the copyright stays.
  const docs = join(tree, 'usr/share/doc');
  for (const doc of readdirSync(docs, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const f of readdirSync(join(docs, doc.name)).filter((f) => f !== 'copyright')) {
      rmSync(join(docs, doc.name, f), { recursive: true });
    }
  }
  for (const lib of LIBRARIES) {
    const at = ['lib', 'usr/lib'].map((d) => `${d}/${TRIPLET[arch]}/${lib}`).find((p) => existsSync(join(all, p)));
    if (!at) throw new Error(`${lib}: in none of ${PACKAGES.join(', ')} for ${arch}`);
    take(all, tree, at);
  }
  take(all, tree, LOADER[arch]);
  copyFileSync(executable, join(tree, 'usr/bin/clinadmin'));
  writeFileSync(
    join(tree, 'etc/passwd'),
    `root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:${NONROOT}:${NONROOT}:nonroot:/home/nonroot:/sbin/nologin\n`,
  );
  writeFileSync(join(tree, 'etc/group'), `root:x:0:\nnonroot:x:${NONROOT}:\n`);
  execFileSync('chmod', ['-R', 'u=rwX,go=rX', tree]);
  execFileSync('chmod', ['0755', join(tree, 'usr/bin/clinadmin')]);
  execFileSync('chmod', ['1777', join(tree, 'tmp')]);
  execFileSync('chmod', ['0700', join(tree, 'home/nonroot')]);
  const tar = join(work, `rootfs-${arch}.tar`);
  const common = ['--sort=name', `--mtime=@${epoch}`, '--numeric-owner', '--format=gnu', '-C', tree];
  const own = ['./data', './home/nonroot'];
  execFileSync('tar', ['-cf', tar, '--owner=0', '--group=0', ...own.map((p) => `--exclude=${p}`), ...common, '.']);
  execFileSync('tar', ['-rf', tar, `--owner=${NONROOT}`, `--group=${NONROOT}`, ...common, ...own]);
  rmSync(all, { recursive: true, force: true });
  rmSync(tree, { recursive: true, force: true });
  return tar;
}

/** Builds the Containerfile for one architecture and writes its OCI archive; returns the file's name. */
function buildImage({ arch, executable, out, work, epoch, version, revision, source }) {
  const context = join(work, `context-${arch}`);
  mkdirSync(context, { recursive: true });
  execFileSync('mv', [rootfs({ arch, executable, work, epoch }), join(context, 'rootfs.tar')]);
  const layout = join(work, `layout-${arch}`);
  // A storage of its own: nothing of the machine's images is read or left behind. Its run folder is in /tmp,
  // as buildah refuses one whose path is longer than 50 characters (a socket's path is made under it).
  const run = mkdtempSync('/tmp/clinadmin-buildah-');
  const storage = ['--root', join(work, 'storage'), '--runroot', run, '--storage-driver', 'vfs'];
  const tag = `localhost/clinadmin-build:${DEB_ARCH[arch]}`;
  const args = { VERSION: version, REVISION: revision, SOURCE: source };
  const quiet = { stdio: ['ignore', 'ignore', 'inherit'] };
  try {
    execFileSync(
      'buildah',
      [
        ...storage,
        ...['build', '--quiet', '--platform', `linux/${DEB_ARCH[arch]}`, '--timestamp', String(epoch)],
        '--identity-label=false',
        ...Object.entries(args).flatMap(([k, v]) => ['--build-arg', `${k}=${v}`]),
        ...['--file', join(root, 'Containerfile'), '--tag', tag, context],
      ],
      quiet,
    );
    // An OCI layout folder, then a tar of it with sorted names and no dates or owners, so that the archive's
    // bytes, not only the image's digest, are the same from the same inputs.
    execFileSync(
      'buildah',
      [...storage, 'push', '--quiet', '--format', 'oci', tag, `oci:${layout}:clinadmin:${version}`],
      quiet,
    );
    execFileSync('buildah', [...storage, 'rmi', '--all'], { stdio: 'ignore' });
  } finally {
    rmSync(run, { recursive: true, force: true });
  }
  const name = imageFile(arch);
  const fixed = ['--sort=name', `--mtime=@${epoch}`, '--owner=0', '--group=0', '--numeric-owner', '--format=gnu'];
  execFileSync('tar', ['-cf', join(out, name), ...fixed, '-C', layout, 'oci-layout', 'index.json', 'blobs']);
  rmSync(context, { recursive: true, force: true });
  rmSync(layout, { recursive: true, force: true });
  return name;
}

/** The source label: --source, else the git remote `origin`'s URL, else this folder, said on stderr. */
function sourceUrl(given) {
  if (given) return given;
  try {
    return execFileSync('git', ['remote', 'get-url', 'origin'], { cwd: root, encoding: 'utf8', stdio: 'pipe' }).trim();
  } catch {
    console.error(`warning: no git remote origin; the image's source label is file://${root} (pass --source URL)`);
    return `file://${root}`;
  }
}

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

async function main() {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, arch: { type: 'string' }, source: { type: 'string' } },
  });
  const out = resolve(values.out ?? join(root, 'dist-bin'));
  const arches = values.arch ? values.arch.split(',') : ARCHES;
  for (const a of arches) if (!ARCHES.includes(a)) throw new Error(`--arch ${a}: one of ${ARCHES.join(', ')}`);
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const source = sourceUrl(values.source);
  const revision = sourceCommit() ?? 'unknown';
  const epoch = sourceDateEpoch();
  const work = join(out, '.image-work');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const files = [];
  try {
    for (const arch of arches) {
      const executable = join(out, `clinadmin-linux-${arch}`);
      if (!existsSync(executable)) throw new Error(`${executable}: missing; npm run build:binary writes it`);
      files.push(buildImage({ arch, executable, out, work, epoch, version, revision, source }));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  // SHA256SUMS lists the images beside what build:binary listed.
  const sums = join(out, 'SHA256SUMS');
  const kept = existsSync(sums)
    ? readFileSync(sums, 'utf8')
        .split('\n')
        .filter((l) => l && !files.includes(l.split('  ')[1]))
    : [];
  writeFileSync(sums, [...kept, ...files.map((f) => `${sha256(join(out, f))}  ${f}`), ''].join('\n'));
  console.error(`built ${files.join(', ')} in ${out} (clinadmin ${version}, ${revision})`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await main();
