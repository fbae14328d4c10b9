// The single executable's rows (`npm run bench -- --binary` runs them alone): the linux-x64 file as
// `npm run build:binary` makes it, built here, against the same exact Node 26 run plainly, and SEA's own
// floors: single executables of that Node that only do the fetch, only print a version, or only do undici's
// GET and print (built as the CLI is), built here too. Beside them, the same CLI and the same undici floor
// built from a V8 startup snapshot (bench/sea-snapshot.cjs), to show what a snapshot costs and saves.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildSea, bundleCli, SEA_NODE_VERSION, seaBundleOptions, seaNode } from '../scripts/build-binary.mjs';
import { wrap } from '../scripts/sea-load.cjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..');
/** The version every file here is built as. */
const VERSION = '0.0.0-bench';
const MiB = (n) => `${(n / 2 ** 20).toFixed(1)} MiB`;
/** What the snapshot's build runs so that help's functions are compiled into it (no request: no undici). */
const SNAP_WARM = [['--help'], ['measures', 'create', '--help'], ['measures', 'list', '--help']];

/**
 * A single executable from a startup snapshot of `entry` (a module with the CLI's `run`), undici left out of
 * its bundle and compiled whole into the snapshot, run after the restore (bench/sea-snapshot.cjs says why).
 */
async function buildSnapshotSea({ entry, output, dir, warm = [] }) {
  const options = seaBundleOptions(VERSION);
  const name = output.split('/').pop();
  const app = join(dir, `${name}.app.js`);
  const undici = join(dir, `${name}.undici.js`);
  const cut = await build({ ...options, entryPoints: [entry], external: ['undici'], write: false });
  writeFileSync(app, wrap(cut.outputFiles[0].text));
  const whole = await build({
    ...options,
    stdin: { contents: "module.exports = require('undici');", resolveDir: root },
    write: false,
  });
  writeFileSync(undici, wrap(whole.outputFiles[0].text));
  return snapshotSea({
    main: join(here, 'sea-snapshot.cjs'),
    output,
    dir,
    env: { SNAP_APP: app, SNAP_UNDICI: undici, SNAP_EAGER: '1', SNAP_WARM: JSON.stringify(warm) },
  });
}

/** `node --build-sea` with useSnapshot: `main` runs once, here, and its heap is the file's start. */
function snapshotSea({ main, output, dir, env = {} }) {
  const config = join(dir, `${output.split('/').pop()}.json`);
  const node = seaNode('x64');
  writeFileSync(
    config,
    JSON.stringify({
      main,
      output,
      executable: node,
      disableExperimentalSEAWarning: true,
      useSnapshot: true,
      execArgvExtension: 'none',
    }),
  );
  execFileSync(node, ['--no-warnings', '--build-sea', config], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...env },
  });
  return output;
}

export async function binarySection({
  start,
  serveFile,
  record,
  reference,
  sideBySide,
  wall,
  ms,
  work,
  BIN,
  TOKEN,
  log,
}) {
  log(`single executable: building the linux-x64 file, its snapshot twin and their floors on Node ${SEA_NODE_VERSION}`);
  const node = seaNode('x64');
  const dir = join(work, 'binary');
  mkdirSync(dir, { recursive: true });
  const { main, text } = await bundleCli(dir, VERSION);
  const file = buildSea({ main, text, arch: 'x64', output: join(dir, 'clinadmin-linux-x64'), work: dir });
  const version = join(dir, 'floor-version.cjs');
  writeFileSync(version, "process.stdout.write('0.1.0\\n');\n");
  const floorFetch = buildSea({
    main: join(here, 'floor-fetch.cjs'),
    arch: 'x64',
    output: join(dir, 'floor-fetch'),
    work: dir,
  });
  const floorVersion = buildSea({ main: version, arch: 'x64', output: join(dir, 'floor-version'), work: dir });
  // The least any snapshot costs: one that holds only its main function, which prints a version.
  const emptyMain = join(dir, 'floor-version-snapshot.cjs');
  writeFileSync(
    emptyMain,
    "require('node:v8').startupSnapshot.setDeserializeMainFunction(() => process.stdout.write('0.1.0\\n'));\n",
  );
  const floorEmpty = snapshotSea({ main: emptyMain, output: join(dir, 'floor-version-snapshot'), dir });
  // undici's GET and print built exactly as the CLI is: the same entry, an asset, a code cache after a warm-up.
  const undiciDir = join(dir, 'floor-undici-work');
  mkdirSync(undiciDir, { recursive: true });
  const floorRun = join(here, 'floor-undici-run.mjs');
  const undiciBundle = await bundleCli(undiciDir, VERSION, floorRun);
  const floorUndici = buildSea({ ...undiciBundle, arch: 'x64', output: join(dir, 'floor-undici'), work: undiciDir });
  // commander alone printing one command's help, built the same way: the least a help of this design costs.
  const helpDir = join(dir, 'floor-help-work');
  mkdirSync(helpDir, { recursive: true });
  const helpBundle = await bundleCli(helpDir, VERSION, join(here, 'floor-help-run.mjs'));
  const floorHelp = buildSea({ ...helpBundle, arch: 'x64', output: join(dir, 'floor-help'), work: helpDir });
  const snapshot = await buildSnapshotSea({
    entry: join(root, 'src', 'cli.ts'),
    output: join(dir, 'clinadmin-snapshot'),
    dir,
    warm: SNAP_WARM,
  });
  const floorSnapshot = await buildSnapshotSea({ entry: floorRun, output: join(dir, 'floor-undici-snapshot'), dir });
  const runs = 21;
  const cacheEnv = { XDG_CACHE_HOME: join(work, 'cache-binary'), CLINADMIN_CONFIG_DIR: join(work, 'no-config') };
  // Each row's A and B alternated, every figure against the same plain Node 26 in the same run.
  const pair = (a, b, extra = {}) =>
    sideBySide(
      () => wall(a.slice(1), { ...cacheEnv, ...extra }, a[0]),
      () => wall(b.slice(1), { ...cacheEnv, ...extra }, b[0]),
      runs,
    );
  const nodeFetch = [node, join(here, 'floor-fetch.cjs')];
  const s = await start('clinadmin', { data: serveFile(100, 'binary') });
  const api = { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN };
  // Every file of a row does the same work: the same bytes out as the shipped file's, or the bench stops.
  const said = (cmd) =>
    spawnSync(cmd[0], cmd.slice(1), { env: { ...process.env, ...cacheEnv, ...api, NO_COLOR: '1' }, encoding: 'utf8' });
  const shipped = said([file, 'measures', 'list', '-o', 'json']);
  for (const other of [[snapshot, 'measures', 'list', '-o', 'json'], [floorUndici], [floorSnapshot], nodeFetch]) {
    const r = said(other);
    if (r.status !== 0 || r.stdout !== shipped.stdout) throw new Error(`${other.join(' ')} differs: ${r.stderr}`);
  }
  for (const args of [['--version'], ['measures', 'create', '--help']]) {
    const [a, b] = [said([file, ...args]), said([snapshot, ...args])];
    if (b.status !== 0 || b.stdout !== a.stdout) throw new Error(`${args.join(' ')} differs: ${b.stderr}`);
  }
  const fetchFloor = pair([floorFetch], nodeFetch, api);
  reference(
    `SEA floor, fetch: a single executable of Node ${SEA_NODE_VERSION} that only does the fetch ` +
      '(`bench/floor-fetch.cjs`, code cache) / the same script run by that Node',
    ms(...fetchFloor),
    fetchFloor[0] / fetchFloor[1],
  );
  const undiciFloor = pair([floorUndici], nodeFetch, api);
  reference(
    "SEA floor, undici: a single executable built as `clinadmin-linux-x64` is, that only does undici's GET and print " +
      `(\`bench/floor-undici-run.mjs\`) / Node ${SEA_NODE_VERSION}'s own fetch`,
    ms(...undiciFloor),
    undiciFloor[0] / undiciFloor[1],
  );
  const snapshotFloor = pair([floorSnapshot], nodeFetch, api);
  reference(
    'SEA floor, undici from a snapshot: the same GET and print from a startup snapshot (undici compiled into ' +
      `it, run after the restore) / Node ${SEA_NODE_VERSION}'s own fetch`,
    ms(...snapshotFloor),
    snapshotFloor[0] / snapshotFloor[1],
  );
  // The target: 0.85 x Node's own fetch, or 1.1 x undici's floor built the same way where that
  // floor itself sits above 0.85 (the CLI cannot make undici cheaper than undici alone).
  const floor = undiciFloor[0] / undiciFloor[1];
  const listTarget = floor > 0.85 ? Number((1.1 * floor).toFixed(2)) : 0.85;
  const list = pair([file, 'measures', 'list', '-o', 'json'], nodeFetch, api);
  record(
    'single executable, list: `clinadmin-linux-x64 measures list -o json` (100 measures) / ' +
      `Node ${SEA_NODE_VERSION}'s own fetch doing the same GET and print`,
    ms(...list),
    list[0] / list[1],
    listTarget,
    '<=',
  );
  const listOnFloor = pair([file, 'measures', 'list', '-o', 'json'], [floorUndici], api);
  reference(
    'single executable, list against its floor: `clinadmin-linux-x64 measures list -o json` / the undici floor ' +
      'built the same way',
    ms(...listOnFloor),
    listOnFloor[0] / listOnFloor[1],
    'reference',
  );
  const snapList = pair([snapshot, 'measures', 'list', '-o', 'json'], nodeFetch, api);
  reference(
    'snapshot twin, list: the same CLI from a startup snapshot, `measures list -o json` / the same fetch',
    ms(...snapList),
    snapList[0] / snapList[1],
    'reference',
  );
  const pkgList = pair([node, BIN, 'measures', 'list', '-o', 'json'], nodeFetch, api);
  reference(
    `npm package, list: \`node bin/clinadmin.cjs measures list -o json\` on Node ${SEA_NODE_VERSION} / ` +
      'its own fetch',
    ms(...pkgList),
    pkgList[0] / pkgList[1],
    'reference',
  );
  await s.stop();
  const versionFloor = pair([floorVersion], [node, '-e', '0']);
  reference(
    `SEA floor, version: a single executable of Node ${SEA_NODE_VERSION} that only prints a version / \`node -e 0\``,
    ms(...versionFloor),
    versionFloor[0] / versionFloor[1],
  );
  const emptyFloor = pair([floorEmpty], [node, '-e', '0']);
  reference(
    'SEA floor, empty snapshot: a single executable from a startup snapshot that holds only a main function ' +
      'printing a version / `node -e 0`',
    ms(...emptyFloor),
    emptyFloor[0] / emptyFloor[1],
  );
  const v = pair([file, '--version'], [node, '-e', '0']);
  record(
    `single executable, version: \`clinadmin-linux-x64 --version\` / \`node -e 0\` of Node ${SEA_NODE_VERSION}`,
    ms(...v),
    v[0] / v[1],
    1.0,
    '<=',
  );
  const snapVersion = pair([snapshot, '--version'], [node, '-e', '0']);
  reference(
    'snapshot twin, version: the same CLI from a startup snapshot, `--version` / `node -e 0`',
    ms(...snapVersion),
    snapVersion[0] / snapVersion[1],
    'reference',
  );
  const pkgVersion = pair([node, BIN, '--version'], [node, '-e', '0']);
  reference(
    `npm package, version: \`node bin/clinadmin.cjs --version\` on Node ${SEA_NODE_VERSION} / \`node -e 0\``,
    ms(...pkgVersion),
    pkgVersion[0] / pkgVersion[1],
    'reference',
  );
  const help = pair([file, 'measures', 'create', '--help'], [node, '-e', '0']);
  record(
    'single executable, help: `clinadmin-linux-x64 measures create --help` / ' +
      `\`node -e 0\` of Node ${SEA_NODE_VERSION}`,
    ms(...help),
    help[0] / help[1],
    1.2,
    '<=',
  );
  const helpFloor = pair([floorHelp], [node, '-e', '0']);
  reference(
    'SEA floor, help: a single executable built as `clinadmin-linux-x64` is, that only has commander print one ' +
      "command's help (`bench/floor-help-run.mjs`) / `node -e 0`",
    ms(...helpFloor),
    helpFloor[0] / helpFloor[1],
  );
  const helpOnFloor = pair([file, 'measures', 'create', '--help'], [floorHelp]);
  reference(
    'single executable, help against its floor: `clinadmin-linux-x64 measures create --help` / that file',
    ms(...helpOnFloor),
    helpOnFloor[0] / helpOnFloor[1],
    'reference',
  );
  const snapHelp = pair([snapshot, 'measures', 'create', '--help'], [node, '-e', '0']);
  reference(
    'snapshot twin, help: the same CLI from a startup snapshot, `measures create --help` / `node -e 0`',
    ms(...snapHelp),
    snapHelp[0] / snapHelp[1],
    'reference',
  );
  // The size: Node itself, and what --build-sea adds (the script, V8's code cache of it, the blob's header).
  const [total, nodeSize, script, cache, snapTotal] = [file, node, text, join(dir, 'clinadmin.cache'), snapshot].map(
    (f) => statSync(f).size,
  );
  reference(
    `size of \`clinadmin-linux-x64\` / the \`node\` it is built from: ${MiB(total)} = Node ${MiB(nodeSize)} + ` +
      `${MiB(total - nodeSize)} added: the bundled CLI ${MiB(script)}, V8's code cache of it ${MiB(cache)}, ` +
      `and the entry with its own code cache (the snapshot twin: ${MiB(snapTotal)})`,
    `${MiB(total)} vs ${MiB(nodeSize)}`,
    total / nodeSize,
    'reference',
  );
}
