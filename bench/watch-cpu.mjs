// `notifications watch` against 100,000 notifications (issue #14): what one poll costs. This process serves
// the list itself, so it can count the polls and read the watcher's CPU time from /proc as each one arrives.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const TICKS = 100; // USER_HZ on Linux: /proc/PID/stat counts CPU time in hundredths of a second
const POLLS = 10;

function notifications(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push({
      id: `ntf_${i}`,
      createdAt: 1_790_000_000_000 + i * 1000,
      code: i % 7 === 0 ? 'new-queue-item' : 'measure-changed',
      type: i % 3 === 0 ? 'warehouse' : 'catalog',
      title: `Notification ${i}`,
      body: `Something changed on record ${i}; see the catalog for details.`,
      meta: { resource: 'diagnostic-measures', id: `bm_${i}` },
      seenBy: i % 2 === 0 ? ['acc_lab', 'acc_support'] : [],
    });
  }
  return out;
}

/** CPU time (user + system) of a process so far, in milliseconds. */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

/**
 * JSON.parse of the same answer, as CPU time in a fresh Node process of its own, each result held until the
 * next as the watcher holds its last poll (eleven parses, the median of the last nine): parsed inside the
 * bench, which holds the scale section's data, a parse pays for that heap's collections.
 */
function parseCpu(NODE, body, median) {
  const script = `const t = require('fs').readFileSync(0, 'utf8'); const out = []; let held;
    for (let i = 0; i < 11; i++) { const c = process.cpuUsage(); held = JSON.parse(t); const d = process.cpuUsage(c);
      out.push((d.user + d.system) / 1000); }
    console.log(JSON.stringify(out.slice(2)), held.length);`;
  const r = spawnSync(NODE, ['-e', script], { input: body, encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`the parse floor failed: ${r.stderr}`);
  return median(JSON.parse(r.stdout.split(' ')[0]));
}

/**
 * Runs `notifications watch -o ndjson --interval 0.2` against n notifications for POLLS polls and returns
 * the watcher's CPU for one poll (the median after the first), and what JSON.parse of the same answer
 * costs (parseCpu).
 */
export async function watchCpu({ NODE, BIN, TOKEN, env, median }, n) {
  const text = JSON.stringify(notifications(n));
  const body = Buffer.from(text);
  const parse = parseCpu(NODE, body, median);
  let child;
  const cpuAt = [];
  let finished;
  const done = new Promise((r) => (finished = r));
  const server = createServer((req, res) => {
    if (req.url !== '/notifications') return void res.writeHead(404).end();
    cpuAt.push(cpuMs(child.pid));
    if (cpuAt.length > POLLS) {
      finished();
      return void res.writeHead(503).end();
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  child = spawn(NODE, [BIN, 'notifications', 'watch', '-o', 'ndjson', '--interval', '0.2'], {
    env: { ...env, CLINADMIN_BASE_URL: url, CLINADMIN_TOKEN: TOKEN },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  await done;
  child.kill('SIGINT');
  await new Promise((r) => child.once('exit', r));
  server.closeAllConnections();
  server.close();
  // From one poll's arrival to the next: one whole poll and the wait. The first poll also starts the
  // process and reads every notification as new; the median leaves out a poll the scheduler cut short.
  const perPoll = median(cpuAt.slice(2, POLLS + 1).map((cpu, i) => cpu - cpuAt[i + 1]));
  return { perPoll, parse, bytes: body.length };
}
