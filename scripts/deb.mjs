// The Debian package of one single executable (npm run build:binary): clinadmin_VERSION_ARCH.deb, built
// offline by dpkg-deb from the files the build already has. The executable at /usr/bin/clinadmin, the man
// pages, the completions where each shell looks for packaged ones, the licences in Debian's machine-readable
// copyright format and a changelog. The same inputs make the same bytes: every file's time is the source's
// date (SOURCE_DATE_EPOCH, else the commit's), dpkg-deb sorts the names and gives root as owner, and gzip
// writes no name or time.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = join(import.meta.dirname, '..');

/** Debian's name of each architecture the executables are built for. */
export const DEB_ARCH = { x64: 'amd64', arm64: 'arm64' };

/**
 * The shared libraries the executable (the Node inside it) links, as dpkg-shlibdeps (Debian Policy 8.6.1)
 * names them from Debian 12's symbols files for the pinned Node; test/system/deb.test.ts runs dpkg-shlibdeps
 * on the built executable and holds this to its answer. The same for arm64: the two Nodes need the same
 * libraries and symbol versions (the test compares their ELF headers).
 */
export const DEPENDS = 'libatomic1 (>= 4.8), libc6 (>= 2.34), libgcc-s1 (>= 4.2), libstdc++6 (>= 10.2)';

/** Where each shell looks for the completions a package installs. */
const COMPLETIONS = {
  'clinadmin.bash': 'usr/share/bash-completion/completions/clinadmin',
  _clinadmin: 'usr/share/zsh/vendor-completions/_clinadmin',
  'clinadmin.fish': 'usr/share/fish/vendor_completions.d/clinadmin.fish',
};

/**
 * The lintian tags that do not fit a single executable of the Node.js the Node.js project publishes, each
 * with why, as /usr/share/lintian/overrides/clinadmin holds them (docs/connecting.md repeats them).
 */
export const LINTIAN_OVERRIDES = [
  {
    tag: 'unstripped-binary-or-object [usr/bin/clinadmin]',
    why: 'strip drops the note that holds the application (.note.node.sea), and the executable then crashes',
  },
  {
    tag: 'hardening-no-pie [usr/bin/clinadmin]',
    why: 'the official Node.js build for Linux, which the executable is, is not position-independent',
  },
  {
    tag: 'embedded-library * [usr/bin/clinadmin]',
    why: 'the official Node.js build links the libraries it ships (zlib and others) into itself, by design',
  },
  {
    tag: 'copyright-file-contains-full-apache-2-license',
    why: "Node.js's LICENSE is quoted whole, and it holds the Apache License 2.0 of libraries Node.js bundles",
  },
  {
    tag: 'copyright-not-using-common-license-for-apache2',
    why: "Node.js's LICENSE is quoted whole, and it holds the Apache License 2.0 of libraries Node.js bundles",
  },
  {
    tag: 'old-fsf-address-in-copyright-file',
    why: "Node.js's LICENSE is quoted whole, and it gives one bundled file's licence (pkg.m4) as written",
  },
];

/** The source's date as seconds: SOURCE_DATE_EPOCH (reproducible-builds.org), else the commit's. */
export function sourceDateEpoch(env = process.env) {
  const given = env.SOURCE_DATE_EPOCH;
  if (given !== undefined) {
    if (!/^\d{1,12}$/.test(given)) throw new Error(`SOURCE_DATE_EPOCH=${given}: a whole number of seconds`);
    return Number(given);
  }
  try {
    return Number(execFileSync('git', ['log', '-1', '--format=%ct'], { cwd: root, encoding: 'utf8' }).trim());
  } catch {
    throw new Error('no commit to date the package by: set SOURCE_DATE_EPOCH to the source date, in seconds');
  }
}

/** The commit the source is, or undefined outside a git checkout. */
export function sourceCommit() {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: 'pipe' }).trim();
  } catch {
    return undefined;
  }
}

/** Text as a field's continuation lines (Debian Policy 5.1): each after a space, a blank line as " .". */
const continued = (text) =>
  text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => (l.trim() === '' ? ' .' : ` ${l.trimEnd()}`))
    .join('\n');

/** A licence as DEP-5 names it: an SPDX expression's OR and AND in lower case, else a name of its own. */
function licenceName(notice) {
  const spdx = notice.license?.replace(/^\((.*)\)$/, '$1');
  if (spdx && /^[A-Za-z0-9.+-]+( (OR|AND) [A-Za-z0-9.+-]+)*$/.test(spdx)) {
    return spdx.replace(/ OR /g, ' or ').replace(/ AND /g, ' and ');
  }
  return `${notice.name.replace(/^@/, '').replace(/\//g, '-')}-licence`;
}

/** Who holds a bundled package's copyright: its licence's own Copyright lines, else its author. */
function holders(notice) {
  const lines = notice.text
    .split('\n')
    .map((l) => l.trim().replace(/^[-*]\s*/, ''))
    .filter((l) => /^(copyright\b|\(c\)|©)/i.test(l))
    .map((l) => l.replace(/^copyright\s*(\(c\)|©)?\s*/i, '').replace(/^(\(c\)|©)\s*/i, ''));
  const found = [...new Set(lines.filter((l) => l !== '' && !/^(notice|holders?\b)/i.test(l)))];
  if (found.length > 0) return found.join('\n');
  return notice.author ?? `the authors of ${notice.name}`;
}

/**
 * /usr/share/doc/clinadmin/copyright in the machine-readable format (DEP-5, copyright-format 1.0): the
 * project's licence, each bundled npm package's and Node's, each with its full text.
 */
export function copyrightFile({ maintainer, licence, notices, node }) {
  const owner = maintainer.replace(/\s*<[^>]*>$/, '');
  const paragraphs = [
    [
      'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/',
      'Upstream-Name: clinadmin',
      `Upstream-Contact: ${maintainer}`,
      'Comment: /usr/bin/clinadmin is one executable: Node.js with clinadmin and the npm',
      ` packages it bundles inside. Node.js ${node.version} is the node-linux-* package of the`,
      ' npm registry; each npm package is named by its folder under node_modules.',
    ].join('\n'),
    ['Files: *', `Copyright: ${owner}`, `License: ${licence.name}`, continued(licence.text)].join('\n'),
    ...notices.map((n) =>
      [
        `Files: node_modules/${n.name}/*`,
        `Copyright: ${continued(holders(n)).slice(1)}`,
        `License: ${licenceName(n)}`,
        continued(n.text),
      ].join('\n'),
    ),
    [
      'Files: node/*',
      'Copyright: Node.js contributors, and the authors of the libraries Node.js bundles',
      ' (named in the licence below)',
      'License: Node.js',
      continued(node.licence.trim()),
    ].join('\n'),
  ];
  return `${paragraphs.join('\n\n')}\n`;
}

/** The changelog of a native package (Debian Policy 4.4), one entry for this version. */
export function changelogFile({ version, maintainer, epoch, commit }) {
  const date = new Date(epoch * 1000).toUTCString().replace(/GMT$/, '+0000');
  const from = commit ? ` from commit ${commit.slice(0, 12)}` : '';
  return [
    `clinadmin (${version}) unstable; urgency=medium`,
    '',
    `  * clinadmin ${version}, built${from} by npm run build:binary.`,
    '',
    ` -- ${maintainer}  ${date}`,
    '',
  ].join('\n');
}

/** Every path under dir, deepest first (so a folder's time is set after its contents are written). */
function walk(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    out.push(p);
  }
  return out;
}

const put = (tree, path, data, mode = 0o644) => {
  const file = join(tree, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, data);
  chmodSync(file, mode);
};

/**
 * Builds clinadmin_VERSION_ARCH.deb into `out` from the executable of `arch`, in a folder under `work`;
 * returns its file name.
 */
export function buildDeb({ arch, executable, version, epoch, maintainer, commit, notices, node, out, work }) {
  const debArch = DEB_ARCH[arch];
  const tree = join(work, `deb-${debArch}`);
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });
  put(tree, 'usr/bin/clinadmin', readFileSync(executable), 0o755);
  const man = join(root, 'docs', 'man');
  for (const page of readdirSync(man).filter((f) => f.endsWith('.1'))) {
    put(tree, `usr/share/man/man1/${page}.gz`, gzipSync(readFileSync(join(man, page)), { level: 9 }));
  }
  for (const [file, path] of Object.entries(COMPLETIONS))
    put(tree, path, readFileSync(join(root, 'completions', file)));
  const { license } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const licence = { name: license, text: readFileSync(join(root, 'LICENSE'), 'utf8') };
  put(tree, 'usr/share/doc/clinadmin/copyright', copyrightFile({ maintainer, licence, notices, node }));
  const changelog = changelogFile({ version, maintainer, epoch, commit });
  put(tree, 'usr/share/doc/clinadmin/changelog.gz', gzipSync(changelog, { level: 9 }));
  if (LINTIAN_OVERRIDES.length > 0) {
    const lines = LINTIAN_OVERRIDES.flatMap(({ tag, why }) => [`# ${why}`, `clinadmin: ${tag}`]);
    put(tree, 'usr/share/lintian/overrides/clinadmin', `${lines.join('\n')}\n`);
  }

  const files = walk(tree).sort();
  // Installed-Size in KiB as dpkg-gencontrol counts it: each file rounded up, each folder one.
  const kib = files.reduce((sum, p) => {
    const s = statSync(p);
    return sum + (s.isDirectory() ? 1 : Math.ceil(s.size / 1024));
  }, 0);
  const md5sums = files
    .filter((p) => statSync(p).isFile())
    .map((p) => `${createHash('md5').update(readFileSync(p)).digest('hex')}  ${relative(tree, p)}\n`)
    .join('');
  put(tree, 'DEBIAN/md5sums', md5sums);
  const control = [
    'Package: clinadmin',
    `Version: ${version}`,
    `Architecture: ${debArch}`,
    `Maintainer: ${maintainer}`,
    `Installed-Size: ${kib}`,
    `Depends: ${DEPENDS}`,
    'Section: utils',
    'Priority: optional',
    'Description: administer clinical reference data over an HTTP JSON API',
    continued(
      [
        'clinadmin lists, shows, creates, edits, imports and exports diagnostic measures',
        '(CSV, FHIR), applies insurance coverages and reads notifications, against the',
        'HTTP JSON API that holds them: tables for people, JSON for pipes, prompts only',
        'when a person is there. clinadmin serve runs a complete reference server of the',
        'API on one JSON file, to try, teach and test without the real service.',
        '',
        'One executable with Node.js inside: it needs no Node.js installed.',
      ].join('\n'),
    ),
    '',
  ].join('\n');
  put(tree, 'DEBIAN/control', control);

  for (const p of [...walk(tree), tree]) {
    if (statSync(p).isDirectory()) chmodSync(p, 0o755);
    utimesSync(p, epoch, epoch);
  }
  const name = `clinadmin_${version}_${debArch}.deb`;
  // gzip, not xz (minutes for 150 MB here) nor zstd (Debian 12's lintian refuses it as malformed).
  try {
    execFileSync('dpkg-deb', ['--root-owner-group', '-Zgzip', '-z6', '--build', tree, join(out, name)], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, SOURCE_DATE_EPOCH: String(epoch) },
    });
  } catch (err) {
    if (err.code === 'ENOENT') throw new Error('dpkg-deb not found: the Debian packages need it (apt install dpkg)');
    throw err;
  }
  rmSync(tree, { recursive: true, force: true });
  return name;
}
