// npm run build:binary: clinadmin as one executable file per Linux architecture, by Node's own single
// executable applications (`node --build-sea`), into dist-bin/ with a SHA256SUMS that `sha256sum -c` reads,
// the man pages as a tarball beside them, and a Debian package of each (scripts/deb.mjs). The Node inside
// is one exact version for every architecture (the registry's @26 tags differ by architecture), taken from
// the npm registry's node-linux-* packages into a cache folder outside the repo: nothing else is fetched,
// nothing is committed.
//
// Usage: node scripts/build-binary.mjs [--out DIR] [--arch x64,arm64] [--set-version VERSION]
// --set-version builds as another version than package.json's (a test of upgrading the package uses it).

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { buildDeb, sourceCommit, sourceDateEpoch } from './deb.mjs';
import { bundledNotices } from './notices.mjs';
import { wrap } from './sea-load.cjs';

/** The Node inside the executables: Node 26 (Active LTS), the newest patch both architectures publish. */
export const SEA_NODE_VERSION = '26.10.0';
export const ARCHES = ['x64', 'arm64'];

const root = resolve(import.meta.dirname, '..');

/** The folder the pinned Node binaries live in, beside scripts/nodes.sh's. */
export function seaNodeCache(env = process.env) {
  const base = env.CLINADMIN_NODE_CACHE || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'clinadmin-nodes');
  return join(base, `sea-${SEA_NODE_VERSION}`);
}

/**
 * The node binary of one architecture, with Node's LICENSE beside it, fetched with `npm pack` once (npm
 * checks the tarball's integrity against the registry's), as `npm install` refuses a package whose cpu is
 * not this machine's.
 */
export function seaNode(arch, env = process.env) {
  const dir = join(seaNodeCache(env), arch);
  const bin = join(dir, 'bin', 'node');
  if (existsSync(bin) && existsSync(join(dir, 'LICENSE'))) return bin;
  const tmp = `${dir}.part`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const [packed] = JSON.parse(
    execFileSync(
      'npm',
      ['pack', '--json', '--loglevel=error', '--pack-destination', tmp, `node-linux-${arch}@${SEA_NODE_VERSION}`],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    ),
  );
  execFileSync('tar', [
    '-xzf',
    join(tmp, packed.filename),
    '-C',
    tmp,
    '--strip-components=1',
    'package/bin/node',
    'package/LICENSE',
  ]);
  rmSync(join(tmp, packed.filename));
  // The folder appears whole or not at all, so an interrupted download is never taken for a Node.
  rmSync(dir, { recursive: true, force: true });
  execFileSync('mv', ['-T', tmp, dir]);
  return bin;
}

/** esbuild's options for every script a single executable runs: one CommonJS file for the pinned Node. */
export function seaBundleOptions(version) {
  return {
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: `node${SEA_NODE_VERSION.split('.')[0]}`,
    minify: true,
    legalComments: 'none',
    define: { __CLINADMIN_VERSION__: JSON.stringify(version) },
    // import() of a built-in becomes a lazy require(): vm.Script, which compiles the CLI, has no import().
    supported: { 'dynamic-import': false },
    logLevel: 'warning',
  };
}

/**
 * The entry and the CLI, each one CommonJS script (a single executable's require() reaches built-ins only):
 * the entry answers --version alone; the CLI, wrapped as sea-load.cjs compiles it, is an asset. `entry`
 * stands in for the CLI where the bench builds a floor the same way (a module with the CLI's `run`).
 */
export async function bundleCli(dir, version, entry = join(root, 'src', 'cli.ts')) {
  const common = seaBundleOptions(version);
  const main = join(dir, 'main.cjs');
  await build({ ...common, entryPoints: [join(root, 'scripts', 'sea-main.cjs')], outfile: main });
  const cli = await build({ ...common, entryPoints: [entry], write: false, metafile: true });
  const text = join(dir, 'clinadmin.js');
  writeFileSync(text, wrap(cli.outputFiles[0].text));
  return { main, text, notices: await bundledNotices(cli.metafile, root) };
}

/**
 * Builds one executable with the pinned Node of its architecture. V8's code cache is made by the Node that
 * builds, so it goes in only where that Node is the target's own architecture: a cache made on x64 may crash
 * an arm64 start (Node's documentation says so), and arm64 built here compiles its CLI at start. The CLI's
 * cache is made after a warm-up (scripts/sea-warm.cjs) so it holds what typical commands run.
 */
export function buildSea({ main, text, arch, output, work, env = process.env }) {
  const builder = seaNode(process.arch === 'arm64' ? 'arm64' : 'x64', env);
  const native = arch === process.arch;
  const assets = {};
  if (text) {
    assets['clinadmin.js'] = text;
    if (native) {
      assets['clinadmin.cache'] = join(work, 'clinadmin.cache');
      // --predictable: V8's single-threaded, fixed-seed mode, so the cache is the same bytes each build;
      // without it, GC and compiler threads decide what the cache holds, and no two builds were alike.
      execFileSync(builder, ['--predictable', join(root, 'scripts', 'sea-warm.cjs'), text, assets['clinadmin.cache']], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      // The executable runs without the flag: a Node without it must take the cache, or the build fails.
      const check = `if (new (require('node:vm').Script)(require('node:fs').readFileSync(process.argv[1], 'utf8'), {
        filename: 'clinadmin.js', cachedData: require('node:fs').readFileSync(process.argv[2]) }).cachedDataRejected)
        throw new Error('V8 refuses the code cache made with --predictable');`;
      execFileSync(builder, ['-e', check, text, assets['clinadmin.cache']], { stdio: ['ignore', 'ignore', 'inherit'] });
    }
  }
  const config = join(work, `sea-${arch}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      // The file keeps the main script's path as given: a name alone, read from its folder, so the build's
      // folder is not inside the executable.
      main: basename(main),
      output,
      executable: seaNode(arch, env),
      disableExperimentalSEAWarning: true,
      useCodeCache: native,
      // NODE_OPTIONS is not read: a user's Node flags (--require, --inspect) belong to their Node, not ours.
      execArgvExtension: 'none',
      assets,
    }),
  );
  // The entry's own code cache (useCodeCache) the same way, from the same bytes each build.
  execFileSync(builder, ['--predictable', '--build-sea', config], {
    cwd: dirname(main),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  chmodSync(output, 0o755);
  return output;
}

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

async function main() {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, arch: { type: 'string' }, 'set-version': { type: 'string' } },
  });
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const version = values['set-version'] ?? pkg.version;
  // Debian Policy 5.6.12: an upstream version starts with a digit and holds only these characters.
  if (!/^[0-9][A-Za-z0-9.+~]*$/.test(version)) throw new Error(`version ${version}: not a Debian version`);
  const epoch = sourceDateEpoch();
  const out = resolve(values.out ?? join(root, 'dist-bin'));
  const arches = values.arch ? values.arch.split(',') : ARCHES;
  for (const a of arches) if (!ARCHES.includes(a)) throw new Error(`--arch ${a}: one of ${ARCHES.join(', ')}`);
  rmSync(out, { recursive: true, force: true });
  const work = join(out, '.work');
  mkdirSync(work, { recursive: true });
  const { main, text, notices } = await bundleCli(work, version);
  const files = [];
  for (const arch of arches) {
    const name = `clinadmin-linux-${arch}`;
    buildSea({ main, text, arch, output: join(out, name), work });
    files.push(name);
  }
  // The man pages for a machine without npm: `tar -xzf clinadmin-man.tar.gz -C ~/.local/share/man`.
  // Sorted names, no dates or owners, so the same pages make the same bytes.
  const pages = readdirSync(join(root, 'docs', 'man'))
    .filter((f) => f.endsWith('.1'))
    .sort();
  execFileSync(
    'sh',
    [
      '-c',
      'tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --transform "s,^,man1/," -cf - "$@" ' +
        '| gzip -9n > "$0"',
      join(out, 'clinadmin-man.tar.gz'),
      ...pages,
    ],
    { cwd: join(root, 'docs', 'man') },
  );
  files.push('clinadmin-man.tar.gz');
  const commit = sourceCommit();
  for (const arch of arches) {
    const node = { version: SEA_NODE_VERSION, licence: readFileSync(join(seaNodeCache(), arch, 'LICENSE'), 'utf8') };
    const executable = join(out, `clinadmin-linux-${arch}`);
    files.push(
      buildDeb({ arch, executable, version, epoch, maintainer: pkg.author, commit, notices, node, out, work }),
    );
  }
  rmSync(work, { recursive: true, force: true });
  writeFileSync(join(out, 'SHA256SUMS'), files.map((f) => `${sha256(join(out, f))}  ${f}\n`).join(''));
  console.error(`built ${files.join(', ')} and SHA256SUMS in ${out} (Node ${SEA_NODE_VERSION} inside)`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await main();
