// The single executable's rows (`npm run bench -- --binary` runs them alone): the linux-x64 file as
// `npm run build:binary` makes it, built here, against the same exact Node 26 run plainly, and SEA's own
// floors: single executables of that Node that only do the fetch, or only print a version, built here too.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSea, bundleCli, SEA_NODE_VERSION, seaNode } from '../scripts/build-binary.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const MiB = (n) => `${(n / 2 ** 20).toFixed(1)} MiB`;

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
  log(`single executable: building the linux-x64 file and its floors on Node ${SEA_NODE_VERSION}`);
  const node = seaNode('x64');
  const dir = join(work, 'binary');
  mkdirSync(dir, { recursive: true });
  const { main, text } = await bundleCli(dir);
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
  const runs = 21;
  const cacheEnv = { XDG_CACHE_HOME: join(work, 'cache-binary'), CLINADMIN_CONFIG_DIR: join(work, 'no-config') };
  // Each row's A and B alternated, every figure against the same plain Node 26 in the same run.
  const pair = (a, b, extra = {}) =>
    sideBySide(
      () => wall(a.slice(1), { ...cacheEnv, ...extra }, a[0]),
      () => wall(b.slice(1), { ...cacheEnv, ...extra }, b[0]),
      runs,
    );
  const held = (what, [x, y], floor) => {
    // The target: at most Node's own figure, or 1.15 × SEA's floor where that floor sits above it.
    const target = floor > 1 ? Number((1.15 * floor).toFixed(2)) : 1.0;
    record(what, ms(x, y), x / y, target, '<=');
  };
  const nodeFetch = [node, join(here, 'floor-fetch.cjs')];
  const s = await start('clinadmin', { data: serveFile(100, 'binary') });
  const api = { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN };
  const fetchFloor = pair([floorFetch], nodeFetch, api);
  reference(
    `floor: a single executable of Node ${SEA_NODE_VERSION} that only does the fetch (\`bench/floor-fetch.cjs\`, ` +
      `code cache) / the same script run by that Node`,
    ms(...fetchFloor),
    fetchFloor[0] / fetchFloor[1],
  );
  held(
    `single executable: \`clinadmin-linux-x64 measures list -o json\` (100 measures) / Node ${SEA_NODE_VERSION}'s ` +
      'own fetch doing the same GET and print',
    pair([file, 'measures', 'list', '-o', 'json'], nodeFetch, api),
    fetchFloor[0] / fetchFloor[1],
  );
  const pkgList = pair([node, BIN, 'measures', 'list', '-o', 'json'], nodeFetch, api);
  reference(
    `the npm package beside it: \`node bin/clinadmin.cjs measures list -o json\` on Node ${SEA_NODE_VERSION} / ` +
      'its own fetch',
    ms(...pkgList),
    pkgList[0] / pkgList[1],
    'reference',
  );
  await s.stop();
  const versionFloor = pair([floorVersion], [node, '-e', '0']);
  reference(
    `floor: a single executable of Node ${SEA_NODE_VERSION} that only prints a version / \`node -e 0\``,
    ms(...versionFloor),
    versionFloor[0] / versionFloor[1],
  );
  held(
    `single executable: \`clinadmin-linux-x64 --version\` / \`node -e 0\` of Node ${SEA_NODE_VERSION}`,
    pair([file, '--version'], [node, '-e', '0']),
    versionFloor[0] / versionFloor[1],
  );
  const pkgVersion = pair([node, BIN, '--version'], [node, '-e', '0']);
  reference(
    `the npm package beside it: \`node bin/clinadmin.cjs --version\` on Node ${SEA_NODE_VERSION} / \`node -e 0\``,
    ms(...pkgVersion),
    pkgVersion[0] / pkgVersion[1],
    'reference',
  );
  // The size: Node itself, and what --build-sea adds (the script, V8's code cache of it, the blob's header).
  const [total, nodeSize, script, cache] = [file, node, text, join(dir, 'clinadmin.cache')].map(
    (f) => statSync(f).size,
  );
  reference(
    `size of \`clinadmin-linux-x64\` / the \`node\` it is built from: ${MiB(total)} = Node ${MiB(nodeSize)} + ` +
      `${MiB(total - nodeSize)} added: the bundled CLI ${MiB(script)}, V8's code cache of it ${MiB(cache)}, ` +
      'and the entry with its own code cache',
    `${MiB(total)} vs ${MiB(nodeSize)}`,
    total / nodeSize,
    'reference',
  );
}
