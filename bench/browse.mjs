// The browse row (issue: notifications browse): time from start to the first full screen of
// `notifications browse` in a pseudo-terminal (script(1), 80 × 24), against `notifications list -o json`
// of the same 10,000 notifications run to its end, alternated in one run.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const notes = (n) =>
  Array.from({ length: n }, (_, i) => ({
    id: `ntf_bench_${i}`,
    createdAt: 1790000000000 + i * 1000,
    code: i % 5 ? 'new-queue-item' : 'stock-low',
    type: 'warehouse',
    title: `Queue item ${i}: collection tubes for the morning round`,
    body: 'A request for 200 EDTA collection tubes is waiting in the warehouse queue.',
    meta: { queue: 'warehouse', item: `isc_${i}` },
    seenBy: i % 3 ? [] : ['acc_support'],
  }));

/** Milliseconds until `done(output so far)` holds, for a command run in a pseudo-terminal; then q is typed. */
function inTerminal(NODE, args, env, done) {
  const line = `stty rows 24 cols 80; exec ${[NODE, ...args].map((a) => `'${a}'`).join(' ')}`;
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const proc = spawn('script', ['-qfec', line, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    let at;
    proc.stdout.on('data', (d) => {
      out += d.toString();
      if (at === undefined && done(out)) {
        at = performance.now() - t;
        proc.stdin.write('q');
      }
    });
    proc.on('exit', (code) => (at === undefined ? reject(new Error(`browse exited ${code}: ${out}`)) : resolve(at)));
  });
}

export async function browseSection({ start, median, record, work, BIN, TOKEN, NODE, env, log, RUNS }) {
  const data = join(work, 'browse.json');
  writeFileSync(data, JSON.stringify({ notifications: notes(10_000) }));
  const s = await start('clinadmin', { data });
  const cliEnv = { ...env, CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN, CLINADMIN_ACCOUNT: 'acc_support' };
  log('browse: first screen of 10,000 notifications against list -o json');
  const list = () =>
    new Promise((resolve, reject) => {
      const t = performance.now();
      const proc = spawn(NODE, [BIN, 'notifications', 'list', '-o', 'json'], {
        env: cliEnv,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      proc.stdout.resume();
      proc.on('exit', (code) =>
        code === 0 ? resolve(performance.now() - t) : reject(new Error(`list exited ${code}`)),
      );
    });
  const first = [];
  const lists = [];
  for (let i = 0; i < RUNS; i++) {
    first.push(await inTerminal(NODE, [BIN, 'notifications', 'browse'], cliEnv, (o) => o.includes('10,000 of 10,000')));
    lists.push(await list());
  }
  await s.stop();
  const [b, l] = [median(first), median(lists)];
  record(
    'browse: first screen of 10,000 notifications / `notifications list -o json` of them',
    `${b.toFixed(0)} ms vs ${l.toFixed(0)} ms`,
    b / l,
    1.5,
    '<=',
  );
}
