// Covers: src/server/http/glob.ts src/server/http/auth.ts src/server/http/admin.ts src/server/http/faults.ts
// Covers: src/server/http/request-log.ts src/server/store/snapshots.ts src/server/store/data-file-lock.ts
// Covers: src/schemas/names.ts
import { link, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
import { runShippedAsProcess } from '../helpers/run-shipped.js';
import { tempDir } from '../helpers/tmp.js';

// serve against hostile hands (issue 38): what a client without a token, or with an ordinary one, can do
// to the server and to other accounts. Each test runs the built binary as a CI job would start it.

const ADMIN = 'admin-token-5c2a9e';
const USER = 'user-token-81d07b';
const procs: ResultPromise[] = [];
afterEach(async () => {
  // SIGKILL: a frozen server ignores SIGTERM, and a test that failed must not leave it running.
  for (const p of procs.splice(0)) {
    p.kill('SIGKILL');
    await p.catch(() => undefined);
  }
});

async function serve(args: string[] = [], options: { dir?: string; env?: Record<string, string> } = {}) {
  const dir = options.dir ?? (await tempDir());
  const s = await serveProcess(
    ['--data', join(dir, 'data.json'), '--token', `${ADMIN}:acc_admin:admin`, '--token', `${USER}:acc_user`, ...args],
    { env: options.env },
  );
  procs.push(s.proc);
  const call = async (method: string, path: string, body?: unknown, token: string | null = ADMIN) => {
    const res = await fetch(s.url + path, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      body: text === '' ? undefined : JSON.parse(text),
    };
  };
  // The CLI as it ships, in process: what is checked is serve's side, and the commands need no process.
  const run = (argv: string[], token = ADMIN) =>
    runShippedAsProcess(argv, { env: { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: token } });
  return { ...s, dir, call, run };
}

/** A request sent as written, path and all (fetch would normalise it), answered with its status. */
function raw(url: string, method: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const req = request({ host: hostname, port, path, method });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('input never drives a backtracking matcher', () => {
  it('filters the request journal by a pathological glob over a huge path while /healthz keeps answering', async () => {
    const s = await serve();
    // An ordinary account's request for no such path, journaled: the longest path serve's 16 KiB header limit
    // admits, far past the 1,000 characters that froze it when the glob became a regular expression.
    const long = `/${'a'.repeat(15_000)}`;
    expect((await s.call('GET', long, undefined, USER)).status).toBe(404);
    const filter = s.call('GET', `/_admin/requests?path=${encodeURIComponent('*a*a*a*a*a*a*b')}`);
    const health = s.call('GET', '/healthz', undefined, null);
    expect((await health).status).toBe(200);
    expect(await filter).toMatchObject({ status: 200, body: [] });
    const hit = await s.call('GET', `/_admin/requests?path=${encodeURIComponent('*a*a*a*a*a*a*')}`);
    expect(hit.body.map((r: { path: string }) => r.path)).toEqual([long]);
    // The CLI's --path goes the same way.
    const cli = await s.run(['sandbox', 'requests', '--path', '/*a*a*a*a*a*a*a*a*a*b', '--expect', '0']);
    expect(cli.exitCode, String(cli.stderr)).toBe(0);
  }, 60_000);

  it('keeps answering while any account sends paths of 15,000 slashes and a letter', async () => {
    const s = await serve();
    // Trimming trailing slashes with /\/+$/ took ~1.5 s a request on such a path: sixty of them froze serve
    // for over a minute. Each is an ordinary account's request for no such path.
    const path = `/diagnostic-measures${'/'.repeat(15_000)}x`;
    const flood = Array.from({ length: 60 }, () => s.call('GET', path, undefined, USER));
    expect((await s.call('GET', '/healthz', undefined, null)).status).toBe(200);
    for (const answer of await Promise.all(flood)) expect(answer.status).toBe(404);
    // An admin's path and a --fail-on rule are trimmed by the same loop.
    expect((await s.call('GET', `/_admin/requests${'/'.repeat(15_000)}x`)).status).toBe(404);
    expect((await s.call('GET', `/_admin/requests${'/'.repeat(15_000)}`)).status).toBe(200);
  }, 60_000);

  it('matches --fail-on as a glob, never as a regular expression', async () => {
    const s = await serve(['--fail-on', 'GET:/diagnostic-measures/(x|y)*:503']);
    expect((await s.call('GET', '/diagnostic-measures/x')).status).toBe(404);
    expect((await s.call('GET', '/diagnostic-measures/(x|y)z')).status).toBe(503);
    // A pathological rule over a long path still answers at once.
    const slow = await serve(['--fail-on', '*:/*a*a*a*a*a*a*a*b:500']);
    expect(await raw(slow.url, 'GET', `/${'a'.repeat(15_000)}`)).toBe(401);
    expect((await slow.call('GET', `/${'a'.repeat(15_000)}`)).status).toBe(404);
  }, 60_000);
});

describe('admin needs an admin', () => {
  it('answers /_admin/ 403 with a problem to a token not marked admin, and serves it to an admin', async () => {
    const s = await serve(['--record-bodies', '--seed']);
    const coverage = { contract: 'ctr_acme_2026', name: 'Secret copay', type: 'deduction', amount: 5 };
    // Account admin's write, with a body an ordinary account must not read back from the journal.
    expect((await s.call('POST', '/insurance-coverages', coverage)).status).toBe(200);
    const attempts: [string, string, unknown?][] = [
      ['GET', '/_admin/requests'],
      ['DELETE', '/_admin/requests'],
      ['GET', '/_admin/snapshots'],
      ['POST', '/_admin/snapshots/mine'],
      ['POST', '/_admin/reset'],
      ['POST', '/_admin/reset', { snapshot: 'mine' }],
    ];
    for (const [method, path, body] of attempts) {
      const r = await s.call(method, path, body, USER);
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.type).toBe('application/problem+json');
      expect(r.body).toMatchObject({ status: 403, detail: expect.stringContaining('TOKEN:ACCOUNT:admin') });
    }
    // Nothing of it happened: no snapshot, the journal still there.
    const journal = await s.call('GET', '/_admin/requests');
    expect(journal.status).toBe(200);
    expect(journal.body[0]).toMatchObject({ method: 'POST', account: 'acc_admin', body: { name: 'Secret copay' } });
    expect((await s.call('GET', '/_admin/snapshots')).body).toEqual([]);
    // The ordinary token still uses the API.
    expect((await s.call('GET', '/insurance-coverages', undefined, USER)).status).toBe(200);
  }, 60_000);

  it('explains a 403 in clinadmin sandbox: the token must be marked admin when serve starts', async () => {
    const s = await serve();
    const r = await s.run(['sandbox', 'requests'], USER);
    expect(r.exitCode).toBe(4);
    expect(String(r.stderr)).toMatch(/403/);
    expect(String(r.stderr)).toMatch(
      /hint: the sandbox needs a token marked admin when serve starts: --token TOKEN:ACCOUNT:admin/,
    );
    expect((await s.run(['sandbox', 'snapshot', 'x'], USER)).exitCode).toBe(4);
    const ok = await s.run(['sandbox', 'snapshot', 'x']);
    expect(ok.exitCode, String(ok.stderr)).toBe(0);
  }, 60_000);

  it('takes the admin mark from CLINADMIN_SERVE_TOKENS, refusing a spec not TOKEN:ACCOUNT:admin', async () => {
    const dir = await tempDir();
    const s = await serveProcess(['--data', join(dir, 'data.json')], {
      env: { CLINADMIN_SERVE_TOKENS: `${ADMIN}:acc_admin:admin,${USER}:acc_user` },
    });
    procs.push(s.proc);
    const get = (token: string) =>
      fetch(`${s.url}/_admin/snapshots`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    expect(await get(ADMIN)).toBe(200);
    expect(await get(USER)).toBe(403);
    const bad = await clinadmin(['serve', '--port', '0', '--data', join(dir, 'x.json'), '--token', 'tok:acc:root']);
    expect(bad.exitCode).toBe(2);
    expect(String(bad.stderr)).toContain('TOKEN:ACCOUNT:admin');
    expect(String(bad.stderr)).not.toContain('tok:');
  }, 60_000);

  it('counts a request without a valid token apart, keeping nothing of it', async () => {
    const s = await serve(['--record-bodies', '--journal-requests', '3']);
    expect((await s.call('POST', '/_admin/marks/app')).status).toBe(200);
    expect((await s.call('GET', '/diagnostic-measures')).status).toBe(200);
    const secret = 'password=hunter2';
    const res = await fetch(`${s.url}/insurance-coverages?${secret}`, {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-token', 'content-type': 'application/json', 'x-note': secret },
      body: JSON.stringify({ name: secret }),
    });
    expect(res.status).toBe(401);
    await res.text();
    // Ten more strangers: none evicts the real entry, none is listed, each is counted.
    for (let i = 0; i < 10; i++) expect((await s.call('GET', '/notifications', undefined, 'nope')).status).toBe(401);
    const all = (await s.call('GET', '/_admin/requests')).body;
    expect(all.map((e: { method: string; path: string }) => `${e.method} ${e.path}`)).toEqual([
      'GET /diagnostic-measures',
    ]);
    const facts = (await s.call('GET', '/_admin/journal?since=app')).body;
    expect(facts.window).toEqual({ dropped: 0, refused: 11 });
    expect(JSON.stringify([all, facts])).not.toContain('hunter2');
  }, 60_000);

  it('counts apart every request that names no valid account: two tokens, one abandoned', async () => {
    const s = await serve(['--journal-requests', '2', '--latency', '200']);
    expect((await s.call('POST', '/_admin/marks/app')).status).toBe(200);
    expect((await s.call('GET', '/diagnostic-measures')).status).toBe(200);
    const { hostname, port } = new URL(s.url);
    // Two Authorization headers, neither valid: a 400 before any token is read.
    const twice = await new Promise<number>((resolve, reject) => {
      const req = request({ host: hostname, port, path: '/insurance-coverages', method: 'POST' });
      req.setHeader('authorization', ['Bearer nope', 'Bearer nope-again']);
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('{}');
    });
    expect(twice).toBe(400);
    expect((await s.call('GET', '/openapi.json', undefined, null)).status).toBe(200);
    // A stranger that leaves while serve waits out its latency, before its token is read: never answered.
    const gone = connect(Number(port), hostname);
    gone.end(`POST /insurance-coverages HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}`);
    await new Promise((r) => gone.once('close', r));
    // Wait for serve to see the stranger leave: it is then counted, or (before this was fixed) listed as a 200.
    let facts = (await s.call('GET', '/_admin/journal?since=app')).body;
    let all = (await s.call('GET', '/_admin/requests')).body as { method: string; path: string; status: number }[];
    while (facts.window.refused < 2 && !all.some((e) => e.status === 200 && e.method === 'POST')) {
      facts = (await s.call('GET', '/_admin/journal?since=app')).body;
      all = (await s.call('GET', '/_admin/requests')).body;
    }
    expect(all.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(['GET /diagnostic-measures 200']);
    expect(facts.window).toEqual({ dropped: 0, refused: 2 });
    const check = await s.run([
      'sandbox',
      'requests',
      '--method',
      'POST',
      '--path',
      '/insurance-coverages',
      '--expect',
      '0',
    ]);
    expect(check.exitCode, String(check.stderr)).toBe(0);
  }, 60_000);
});

describe('the journal says what was answered', () => {
  it('lists a request whose client left before any answer with status 0, never as a 200', async () => {
    const s = await serve();
    const { hostname, port } = new URL(s.url);
    // The app's token, its body promised and never sent whole: serve is left waiting, then the client goes.
    const gone = connect(Number(port), hostname);
    gone.write(
      `POST /insurance-coverages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${USER}\r\nExpect: 100-continue\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n',
    );
    // Node answers 100 Continue as it hands the request to serve: its token is read by then.
    await new Promise((r) => gone.once('data', r));
    gone.write('{"name":');
    gone.destroy();
    let listed: { method: string; status: number; account?: string }[] = [];
    while (listed.length === 0) listed = (await s.call('GET', '/_admin/requests')).body;
    expect(listed.map((e) => [e.method, e.status, e.account])).toEqual([['POST', 0, 'acc_user']]);
    const check = await s.run(['sandbox', 'requests', '--method', 'POST', '--status', '200', '--expect', '0']);
    expect(check.exitCode, String(check.stderr)).toBe(0);
    expect((await s.call('GET', '/insurance-coverages')).body).toEqual([]);
  }, 60_000);

  it("lists a request its client left during --latency as its account's, status 0, not a stranger's", async () => {
    const s = await serve(['--latency', '200']);
    const { hostname, port } = new URL(s.url);
    const gone = connect(Number(port), hostname);
    gone.end(`GET /notifications HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${USER}\r\n\r\n`);
    let listed: { method: string; status: number; account?: string }[] = [];
    let refused = 0;
    // Wait until serve has seen the client go: listed (its token read) or counted as a stranger's.
    while (listed.length === 0 && refused === 0) {
      listed = (await s.call('GET', '/_admin/requests')).body;
      refused = (await s.call('GET', '/_admin/journal')).body.window.refused;
    }
    expect(listed.map((e) => [e.method, e.status, e.account])).toEqual([['GET', 0, 'acc_user']]);
    expect(refused).toBe(0);
  }, 60_000);
});

describe('snapshot names cannot collide', () => {
  it('keeps a.meta and a apart, across a restart, and resets to each', async () => {
    const s = await serve(['--seed']);
    const names = async () => (await s.call('GET', '/insurance-coverages')).body.map((c: { name: string }) => c.name);
    const coverage = (name: string) =>
      s.call('POST', '/insurance-coverages', { contract: 'ctr_acme_2026', name, type: 'deduction', amount: 5 });
    expect((await coverage('Only in a.meta')).status).toBe(200);
    expect((await s.call('POST', '/_admin/snapshots/a.meta')).status).toBe(200);
    const inMeta = await names();
    expect((await s.call('DELETE', `/insurance-coverages/${(await coverage('x')).body.id}`)).status).toBe(200);
    await s.call('POST', '/_admin/reset');
    expect((await coverage('Only in a')).status).toBe(200);
    expect((await s.call('POST', '/_admin/snapshots/a')).status).toBe(200);
    const inA = await names();
    expect(inA).not.toEqual(inMeta);
    s.proc.kill('SIGTERM');
    await s.proc;
    // A new process: no cache of what was saved, only the files.
    const again = await serve([], { dir: s.dir });
    const listed = await again.call('GET', '/_admin/snapshots');
    expect(listed.body.map((x: { name: string }) => x.name)).toEqual(['a', 'a.meta']);
    const restored = async () =>
      (await again.call('GET', '/insurance-coverages')).body.map((c: { name: string }) => c.name);
    expect((await again.call('POST', '/_admin/reset', { snapshot: 'a.meta' })).status).toBe(200);
    expect(await restored()).toEqual(inMeta);
    expect((await again.call('POST', '/_admin/reset', { snapshot: 'a' })).status).toBe(200);
    expect(await restored()).toEqual(inA);
    const cli = await again.run(['sandbox', 'reset', 'a.meta']);
    expect(cli.exitCode, String(cli.stderr)).toBe(0);
    expect(await restored()).toEqual(inMeta);
  }, 60_000);
});

/** A second serve on `data`: one that starts is stopped at once, so the caller's assertion fails on its exit. */
async function secondServe(data: string, env: Record<string, string>) {
  const again = clinadmin(['serve', '--port', '0', '--data', data, '--token', `${ADMIN}:a:admin`], {
    env,
    buffer: true,
  });
  again.stdout?.on('data', (d: Buffer) => {
    if (d.toString().includes('listening')) again.kill('SIGKILL');
  });
  return again;
}

describe('one server per data file on this machine', () => {
  it('refuses a second serve through a hard link in another folder (runtime folder, or temp folder)', async () => {
    for (const runtime of [await tempDir('clinadmin-run-'), '']) {
      const first = await tempDir();
      const second = join(await tempDir(), 'elsewhere');
      await mkdir(second);
      const data = join(first, 'data.json');
      await writeFile(data, JSON.stringify({ formatVersion: 2, diagnosticMeasures: [] }));
      await link(data, join(second, 'data.json'));
      const env = { XDG_RUNTIME_DIR: runtime };
      const s = await serve([], { dir: first, env });
      const refused = await secondServe(join(second, 'data.json'), env);
      expect(refused.exitCode, `XDG_RUNTIME_DIR=${runtime}`).toBe(2);
      expect(String(refused.stderr)).toMatch(
        new RegExp(`in use by another clinadmin serve \\(process ${s.proc.pid}\\)`),
      );
      s.proc.kill('SIGTERM');
      expect((await s.proc).exitCode).toBe(0);
      // The last server out leaves nothing behind in the runtime folder.
      if (runtime !== '') expect(await readdir(runtime)).toEqual([]);
      // Once the first has stopped, the link may serve.
      const later = await serve([], { dir: second, env });
      expect(later.url).toMatch(/^http:/);
      later.proc.kill('SIGTERM');
      await later.proc;
    }
  }, 60_000);

  it('keeps the lock by inode on the file a fold wrote: a hard link made after it is refused too', async () => {
    // A data file that does not exist yet is written whole at the start, by the same rename as every fold:
    // the inode at the path is a new one, and the lock must follow it (before, only an inode found at the
    // start was locked, and a fold freed that inode for the next new file to get).
    const runtime = await tempDir('clinadmin-run-');
    const first = await tempDir();
    const second = join(await tempDir(), 'elsewhere');
    await mkdir(second);
    const env = { XDG_RUNTIME_DIR: runtime };
    const s = await serve([], { dir: first, env });
    const { dev, ino } = await stat(join(first, 'data.json'));
    expect(await readdir(join(runtime, 'clinadmin'))).toEqual([`.clinadmin-${dev}-${ino}.lock`]);
    await link(join(first, 'data.json'), join(second, 'data.json'));
    const refused = await secondServe(join(second, 'data.json'), env);
    expect(refused.exitCode).toBe(2);
    expect(String(refused.stderr)).toMatch(new RegExp(`in use by another clinadmin serve \\(process ${s.proc.pid}\\)`));
    s.proc.kill('SIGTERM');
    expect((await s.proc).exitCode).toBe(0);
    expect(await readdir(runtime)).toEqual([]);
  }, 60_000);
});

describe('every store is bounded in bytes', () => {
  it('stays alive under a 128 MB heap through 200 refused 1 MiB bodies, the newest kept within the cap', async () => {
    const s = await serve(['--record-bodies'], { env: { NODE_OPTIONS: '--max-old-space-size=128' } });
    // Nearly 1 MiB in a field the schema does not know, refused (400): 200 of them kept whole were 200 MB, and
    // the byte cap (32 MiB) keeps the newest whole, as it would accepted ones.
    const body = `{"test":"tst_x","name":"x","junk":"${'a'.repeat(1_040_000)}"}`;
    expect(body.length).toBeLessThan(1024 * 1024);
    const send = () =>
      fetch(`${s.url}/diagnostic-measures`, {
        method: 'POST',
        headers: { authorization: `Bearer ${USER}`, 'content-type': 'application/json' },
        body,
      }).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      });
    for (let round = 0; round < 50; round++) {
      const statuses = await Promise.all([send(), send(), send(), send()]);
      expect(statuses, `round ${round}`).toEqual([400, 400, 400, 400]);
    }
    expect((await s.call('GET', '/healthz', undefined, null)).status).toBe(200);
    const kept = (await s.call('GET', '/_admin/requests?method=POST')).body;
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThanOrEqual(32);
    for (const e of kept) expect(e.body).toEqual(JSON.parse(body));
    const { window } = (await s.call('GET', '/_admin/journal')).body;
    expect(window).toEqual({ dropped: 200 - kept.length, limit: 'journal-bytes', refused: 0 });
  }, 120_000);

  it('answers a body of 349,000 bad values in a few lines, alive under a 128 MB heap', async () => {
    const s = await serve([], { env: { NODE_OPTIONS: '--max-old-space-size=128' } });
    // Each [] is a bad choice: zod made an issue for each, 700 MB and a 41 MB answer for one request.
    const body = `{"test":"tst_x","name":"x","type":"checklist","choices":[${'[],'.repeat(349_000)}[]]}`;
    for (let i = 0; i < 8; i++) {
      const r = await fetch(`${s.url}/diagnostic-measures`, {
        method: 'POST',
        headers: { authorization: `Bearer ${USER}`, 'content-type': 'application/json' },
        body,
      });
      const text = await r.text();
      expect(r.status).toBe(400);
      expect(text.length).toBeLessThan(2_000);
      expect(JSON.parse(text).detail).toContain('holds more than 10,000 values');
    }
    expect((await s.call('GET', '/healthz', undefined, null)).status).toBe(200);
  }, 60_000);

  it('drops the oldest requests past --journal-bytes, and keeps an accepted body whole while it fits', async () => {
    const s = await serve(['--record-bodies', '--journal-bytes', '400000']);
    const description = 'd'.repeat(40_000);
    for (let i = 0; i < 30; i++) {
      const r = await s.call('POST', '/diagnostic-measures', { test: 'tst_x', name: `m${i}`, description });
      expect(r.status).toBe(200);
    }
    const kept = (await s.call('GET', '/_admin/requests')).body;
    expect(JSON.stringify(kept).length).toBeLessThanOrEqual(400_000);
    expect(kept.length).toBeGreaterThan(3);
    expect(kept.length).toBeLessThan(30);
    // The newest are kept, each body as it was sent.
    expect(kept.at(-1).body).toEqual({ test: 'tst_x', name: 'm29', description });
    // A body over an eighth of the cap is kept as its start.
    const big = await s.call('POST', '/diagnostic-measures', {
      test: 'tst_x',
      name: 'big',
      description: 'b'.repeat(60_000),
    });
    expect(big.status).toBe(200);
    const last = (await s.call('GET', '/_admin/requests')).body.at(-1);
    expect(last.body).toBeUndefined();
    expect(last.bodyStart).toHaveLength(256);
    expect(last.bodyBytes).toBeGreaterThan(60_000);
  }, 60_000);
});

describe('names a person can tell apart', () => {
  const hidden: [string, string][] = [
    ['\u200b', 'U+200B (zero width space)'],
    ['\u2060', 'U+2060 (word joiner)'],
    ['\u202e', 'U+202E (right-to-left override)'],
    ['\u2067', 'U+2067 (right-to-left isolate)'],
    ['\ufeff', 'U+FEFF (zero width no-break space)'],
    ['\u0007', 'U+0007 (a control character)'],
    ['\u009b', 'U+009B (a control character)'],
    ['\u{e0001}', 'U+E0001 (an invisible format character)'],
  ];

  it('refuses over HTTP a name with a control or format character, naming the field and code point', async () => {
    const s = await serve(['--seed']);
    for (const [ch, named] of hidden) {
      const r = await s.call('POST', '/diagnostic-measures', { test: 'tst_bmp', name: `Pota${ch}ssium`, type: 'text' });
      expect(r.status, named).toBe(400);
      expect(r.body.errors).toEqual([{ path: 'name', message: expect.stringContaining(`${named} is not allowed`) }]);
      expect(r.body.detail).toContain(`name: ${named} is not allowed`);
      const c = await s.call('POST', '/insurance-coverages', {
        contract: 'ctr_acme_2026',
        name: `Co${ch}pay`,
        type: 'deduction',
        amount: 1,
      });
      expect(c.status, named).toBe(400);
      const p = await s.call('PATCH', '/diagnostic-measures/msr_k', { name: `K${ch}x` });
      expect(p.status, named).toBe(400);
    }
    // Letters of every script, marks and emoji stay welcome.
    for (const name of ['Näme', 'Натрий', 'ナトリウム', 'صوديوم', 'Na⁺ 🧪']) {
      expect((await s.call('POST', '/diagnostic-measures', { test: 'tst_ok', name, type: 'text' })).status).toBe(200);
    }
  }, 60_000);

  it('compares names after NFC: "Na\\u0308me" collides with "Näme" in the same test', async () => {
    const s = await serve();
    expect(
      (await s.call('POST', '/diagnostic-measures', { test: 'tst_n', name: 'N\u00e4me', type: 'text' })).status,
    ).toBe(200);
    const again = await s.call('POST', '/diagnostic-measures', { test: 'tst_n', name: 'Na\u0308me', type: 'text' });
    expect(again.status).toBe(409);
    const other = await s.call('POST', '/diagnostic-measures', { test: 'tst_n', name: 'Other', type: 'text' });
    expect((await s.call('PATCH', `/diagnostic-measures/${other.body.id}`, { name: 'Na\u0308me' })).status).toBe(409);
    const seeded = await serve(['--seed']);
    const cs = (name: string) =>
      seeded.call('POST', '/insurance-coverages', { contract: 'ctr_acme_2026', name, type: 'deduction', amount: 1 });
    expect((await cs('Caf\u00e9')).status).toBe(200);
    expect((await cs('Cafe\u0301')).status).toBe(409);
  }, 60_000);

  it('refuses such a name in the CLI, on create and on import, before anything is sent', async () => {
    const s = await serve(['--seed']);
    await s.call('DELETE', '/_admin/requests');
    const create = await s.run([
      'measures',
      'create',
      '--test',
      'tst_bmp',
      '--name',
      'Potassium\u200b',
      '--type',
      'text',
    ]);
    expect(create.exitCode).toBe(2);
    expect(String(create.stderr)).toContain('name: U+200B (zero width space) is not allowed');
    const update = await s.run(['measures', 'update', 'msr_k', '--name', 'K\u202e']);
    expect(update.exitCode).toBe(2);
    expect(String(update.stderr)).toContain('name: U+202E (right-to-left override) is not allowed');
    const coverage = await s.run([
      ...['coverages', 'create', '--contract', 'ctr_acme_2026', '--name', 'Copay\u2066'],
      ...['--type', 'deduction', '--amount', '1'],
    ]);
    expect(coverage.exitCode).toBe(2);
    expect(String(coverage.stderr)).toContain('name: U+2066 (left-to-right isolate) is not allowed');
    const file = join(s.dir, 'catalog.json');
    await writeFile(
      file,
      JSON.stringify([
        { test: 'tst_j', name: 'Fine', type: 'text' },
        { test: 'tst_j', name: 'Po\u2060tassium', type: 'text' },
      ]),
    );
    const imported = await s.run(['measures', 'import', file]);
    expect(imported.exitCode).toBe(2);
    expect(String(imported.stderr)).toContain('U+2060 (word joiner) is not allowed');
    expect(String(imported.stderr)).toContain('nothing was sent');
    // The server's own account: nothing was written.
    const seen = (await s.call('GET', '/_admin/requests')).body as { method: string }[];
    expect(seen.filter((r) => r.method !== 'GET')).toEqual([]);
  }, 60_000);
});
