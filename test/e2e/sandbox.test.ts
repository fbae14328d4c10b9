// Covers: src/commands/sandbox/ src/server/service/sandbox.ts src/server/http/admin.ts src/server/http/request-log.ts
// Covers: src/server/http/request-log-view.ts src/server/http/runtime-faults.ts src/server/store/snapshots.ts
import { stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
import { runShippedAsProcess } from '../helpers/run-shipped.js';
import { tempDir } from '../helpers/tmp.js';

const TOKEN = 'sandbox-token-4e1f';

/** serve on a data file of its own, the CLI pointed at it, and a raw request helper. */
async function sandbox(extra: string[] = [], dir?: string) {
  const folder = dir ?? (await tempDir());
  const data = join(folder, 'data.json');
  const s = await serveProcess(['--seed', '--data', data, '--token', `${TOKEN}:acc_ci:admin`, ...extra]);
  const env = { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN };
  // The CLI as it ships, in this process: what is checked is what serve answers, and a process for each of
  // the file's ~70 commands was most of its CPU time.
  const run = (args: string[]) => runShippedAsProcess(args, { env });
  const call = async (method: string, path: string, body?: unknown, token = TOKEN) => {
    const res = await fetch(s.url + path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const coverage = (name: string) =>
    call('POST', '/insurance-coverages', {
      contract: 'ctr_acme_2026',
      name,
      type: 'deduction',
      amount: 5,
      paymentMethod: 'prepaid',
      ref: 'svc_1',
      refType: 'services',
    });
  return { ...s, folder, data, env, run, call, coverage };
}

const exportOf = async (run: (a: string[]) => ReturnType<typeof runShippedAsProcess>) => {
  const r = await run(['measures', 'export']);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return String(r.stdout);
};

describe('serve for test suites: snapshots and reset', () => {
  it('saves, lists and restores a snapshot over HTTP and from the CLI, adding no notification', async () => {
    const s = await sandbox();
    const saved = await s.run(['sandbox', 'snapshot', 'seeded', '-o', 'json']);
    expect(saved.exitCode, String(saved.stderr)).toBe(0);
    expect(JSON.parse(String(saved.stdout))).toMatchObject({
      name: 'seeded',
      measures: 6,
      coverages: 3,
      notifications: 3,
    });
    const atSnapshot = await exportOf(s.run);
    const notesAtSnapshot = (await s.call('GET', '/notifications')).body.length;
    expect((await s.coverage('Extra')).status).toBe(200);
    expect((await s.call('DELETE', '/diagnostic-measures/msr_k')).status).toBe(200);
    const list = await s.call('GET', '/_admin/snapshots');
    expect(list.body).toEqual([
      { name: 'seeded', createdAt: expect.any(Number), measures: 6, coverages: 3, notifications: 3 },
    ]);
    const reset = await s.run(['sandbox', 'reset', 'seeded']);
    expect(reset.exitCode, String(reset.stderr)).toBe(0);
    expect(String(reset.stderr)).toBe('reset to snapshot seeded: 6 measures, 3 coverages, 3 notifications');
    expect(await exportOf(s.run)).toBe(atSnapshot);
    expect((await s.call('GET', '/notifications')).body.length).toBe(notesAtSnapshot);
    expect((await s.call('GET', '/insurance-coverages')).body.map((c: { name: string }) => c.name)).not.toContain(
      'Extra',
    );
    // Without a name: the state the server started with.
    await s.coverage('Later');
    const start = await s.call('POST', '/_admin/reset');
    expect(start).toEqual({ status: 200, body: { snapshot: null, measures: 6, coverages: 3, notifications: 3 } });
    expect(await exportOf(s.run)).toBe(atSnapshot);
    const table = await s.run(['sandbox', 'snapshots', '-o', 'table']);
    expect(String(table.stdout)).toMatch(
      /^NAME\s+CREATED\s+MEASURES\s+COVERAGES\s+NOTIFICATIONS\nseeded\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+6\s+3\s+3$/,
    );
  });

  it('refuses a name that could leave the folder (400) and an unknown snapshot (404, exit 3)', async () => {
    const s = await sandbox();
    // Sent as written (fetch would resolve %2E%2E as a dot segment before sending): a client may send anything.
    const raw = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const { hostname, port } = new URL(s.url);
        const req = request({
          host: hostname,
          port,
          path,
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    for (const name of ['%2E%2E', '..', 'a%2Fb', '.hidden', `${'x'.repeat(65)}`, '%2E%2E%2Fx'])
      expect(await raw(`/_admin/snapshots/${name}`), name).toBe(400);
    expect((await s.call('POST', '/_admin/reset', { snapshot: '../data' })).status).toBe(400);
    expect((await s.call('POST', '/_admin/reset', { snapshot: 'nope' })).status).toBe(404);
    const r = await s.run(['sandbox', 'reset', 'nope']);
    expect(r.exitCode).toBe(3);
    expect(String(r.stderr)).toMatch(/^error: the server has no snapshot named nope/);
    expect((await s.call('POST', '/_admin/reset', undefined, 'wrong')).status).toBe(401);
  });

  it('keeps snapshots across restarts, and a reset answered 200 survives kill -9 exactly', async () => {
    const s = await sandbox();
    await s.run(['sandbox', 'snapshot', 'seeded']);
    const atSnapshot = await exportOf(s.run);
    await s.coverage('Gone after reset');
    expect((await s.call('POST', '/_admin/reset', { snapshot: 'seeded' })).status).toBe(200);
    s.proc.kill('SIGKILL');
    await s.proc.catch(() => undefined);
    const again = await sandbox([], s.folder);
    expect(await exportOf(again.run)).toBe(atSnapshot);
    expect((await again.call('GET', '/_admin/snapshots')).body.map((x: { name: string }) => x.name)).toEqual([
      'seeded',
    ]);
  });

  it('never leaves half of one state and half of another when killed during a reset', async () => {
    // The kill is sent the moment the reset's one journal line reaches the file, which the server answers
    // only once it is on disk: the kill lands inside the reset, after its write began and before its 200.
    let during = 0;
    for (let round = 0; round < 10 && during < 2; round++) {
      const s = await sandbox();
      await s.run(['sandbox', 'snapshot', 'empty-ish']);
      const atSnapshot = await exportOf(s.run);
      for (let i = 0; i < 5; i++) await s.coverage(`Before ${i}`);
      await s.call('DELETE', '/diagnostic-measures/msr_hgb');
      const before = await exportOf(s.run);
      const journal = `${s.data}.journal`;
      const size = async () => (await stat(journal).catch(() => ({ size: 0 }))).size;
      const written = await size();
      let answered = false;
      const pending = fetch(`${s.url}/_admin/reset`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ snapshot: 'empty-ish' }),
      })
        .then((r) => {
          answered = r.status === 200;
        })
        .catch(() => undefined);
      while ((await size()) === written && !answered) await new Promise((r) => setImmediate(r));
      s.proc.kill('SIGKILL');
      await pending;
      await s.proc.catch(() => undefined);
      if (!answered) during++;
      const again = await sandbox([], s.folder);
      const after = await exportOf(again.run);
      expect([before, atSnapshot], `round ${round}`).toContain(after);
      const coverages = (await again.call('GET', '/insurance-coverages')).body.map((c: { name: string }) => c.name);
      // All five coverages made before, or none of them.
      expect([0, 5], `round ${round}`).toContain(coverages.filter((n: string) => n.startsWith('Before')).length);
      again.proc.kill('SIGTERM');
      await again.proc;
    }
    // Rounds where the server answered before the kill prove nothing of a kill during the reset: not all may.
    expect(during).toBe(2);
  }, 120_000);
});

describe('serve for test suites: the request journal', () => {
  it('records what a client sent, filters it, clears it, and never keeps a token', async () => {
    const s = await sandbox(['--record-bodies']);
    await s.coverage('One');
    await s.coverage('Two');
    await s.coverage('Three');
    await s.call('GET', '/diagnostic-measures?x=1');
    await s.call('GET', '/notifications', undefined, 'not-a-token');
    await fetch(`${s.url}/healthz`);
    const all = (await s.call('GET', '/_admin/requests')).body;
    expect(
      all.map((r: { method: string; path: string; status: number }) => `${r.method} ${r.path} ${r.status}`),
    ).toEqual([
      'POST /insurance-coverages 200',
      'POST /insurance-coverages 200',
      'POST /insurance-coverages 200',
      'GET /diagnostic-measures 200',
    ]);
    // A stranger's request is counted apart, never listed among the entries.
    expect((await s.call('GET', '/_admin/journal')).body.window).toEqual({ dropped: 0, refused: 1 });
    expect(all[0]).toMatchObject({ account: 'acc_ci', query: '', body: { name: 'One' } });
    expect(all[0].time).toBeGreaterThan(Date.now() - 60_000);
    expect(all[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(all[3].query).toBe('x=1');
    expect(JSON.stringify(all)).not.toContain(TOKEN);
    expect(JSON.stringify(all)).not.toContain('not-a-token');
    const posts = await s.call('GET', '/_admin/requests?method=post&path=/insurance-*&status=200');
    expect(posts.body).toHaveLength(3);
    // The CLI: a CI step that asserts three coverages were created and none deleted.
    const three = await s.run([
      'sandbox',
      'requests',
      '--method',
      'POST',
      '--path',
      '/insurance-coverages*',
      '--expect',
      '3',
    ]);
    expect(three.exitCode, String(three.stderr)).toBe(0);
    const none = await s.run(['sandbox', 'requests', '--method', 'DELETE', '--expect', '0']);
    expect(none.exitCode).toBe(0);
    const wrong = await s.run(['sandbox', 'requests', '--method', 'POST', '--expect', '2', '-o', 'json']);
    expect(wrong.exitCode).toBe(1);
    expect(String(wrong.stderr)).toBe(
      'expected 2 requests matching POST, found 3\n' +
        '1 request without a valid token (401 or 403) in the window is not counted: check the token the app sends',
    );
    expect(JSON.parse(String(wrong.stdout))).toHaveLength(3);
    expect((await s.call('DELETE', '/_admin/requests')).status).toBe(200);
    expect((await s.call('GET', '/_admin/requests')).body).toEqual([]);
    await s.coverage('Four');
    await s.call('POST', '/_admin/reset');
    expect((await s.call('GET', '/_admin/requests')).body).toEqual([]);
  });

  it('shows an invalid import wrote nothing, and a valid one read the list once, then sent', async () => {
    const s = await sandbox();
    const file = join(s.folder, 'catalog.json');
    await writeFile(
      file,
      JSON.stringify([
        { test: 'tst_j', name: 'Fine', type: 'text' },
        { test: 'tst_j', type: 'x' },
      ]),
    );
    const bad = await s.run(['measures', 'import', file]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('nothing was sent');
    // The request journal is the server's own account: at most the list was asked for, nothing written.
    const before = (await s.call('GET', '/_admin/requests')).body as { method: string }[];
    expect(before.filter((r) => r.method !== 'GET')).toEqual([]);
    expect((await s.call('DELETE', '/_admin/requests')).status).toBe(200);
    await writeFile(file, JSON.stringify([{ test: 'tst_j', name: 'Fine', type: 'text' }]));
    expect((await s.run(['measures', 'import', file])).exitCode).toBe(0);
    const seen = (await s.call('GET', '/_admin/requests')).body as { method: string; path: string }[];
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /diagnostic-measures', 'POST /diagnostic-measures']);
  });

  it('narrows to what the app sent: cleared, since a mark, by account and by body, with --expect', async () => {
    const s = await sandbox(['--record-bodies', '--token', 'app-token:acc_app']);
    await s.coverage('Seeded');
    const cleared = await s.run(['sandbox', 'requests', '--clear']);
    expect(cleared.exitCode, String(cleared.stderr)).toBe(0);
    expect(String(cleared.stderr)).toBe('cleared the request journal');
    expect((await s.call('GET', '/_admin/requests')).body).toEqual([]);
    await s.coverage('Before the mark');
    expect(String((await s.run(['sandbox', 'mark', 'app', '-q'])).stderr)).toBe('');
    await s.call(
      'POST',
      '/insurance-coverages',
      { contract: 'ctr_acme_2026', name: 'By the app', type: 'deduction', amount: 7 },
      'app-token',
    );
    await s.coverage('By CI');
    const expect1 = (args: string[]) => s.run(['sandbox', 'requests', '--since', 'app', ...args, '--expect', '1']);
    expect((await expect1(['--account', 'acc_app'])).exitCode).toBe(0);
    expect((await expect1(['--body', '{"name": "By the app", "amount": 7}'])).exitCode).toBe(0);
    expect((await expect1(['--account', 'acc_ci', '--method', 'POST'])).exitCode).toBe(0);
    // A failed expectation lists what did match.
    const two = await s.run([
      'sandbox',
      'requests',
      '--since',
      'app',
      '--method',
      'POST',
      '--expect',
      '1',
      '-o',
      'json',
    ]);
    expect(two.exitCode).toBe(1);
    expect(String(two.stderr)).toBe('expected 1 request matching POST since app, found 2');
    expect(JSON.parse(String(two.stdout)).map((r: { body: { name: string } }) => r.body.name)).toEqual([
      'By the app',
      'By CI',
    ]);
    const unknown = await s.run(['sandbox', 'requests', '--since', 'nope']);
    expect(unknown.exitCode).toBe(3);
    expect(String(unknown.stderr)).toMatch(/^error: the server has no mark named nope/);
    const plain = await sandbox();
    const noBodies = await plain.run(['sandbox', 'requests', '--body', '{"name":"x"}']);
    expect(noBodies.exitCode).toBe(1);
    expect(String(noBodies.stderr)).toContain(
      'keeps no bodies, so none can match body; start serve with --record-bodies',
    );
  });

  it('keeps no body without --record-bodies, and nothing with --journal-requests 0', async () => {
    const plain = await sandbox();
    await plain.coverage('One');
    expect((await plain.call('GET', '/_admin/requests')).body[0].body).toBeUndefined();
    const off = await sandbox(['--journal-requests', '0']);
    await off.coverage('One');
    expect((await off.call('GET', '/_admin/requests')).body).toEqual([]);
    const bounded = await sandbox(['--journal-requests', '2']);
    for (const n of ['a', 'b', 'c']) await bounded.coverage(n);
    expect((await bounded.call('GET', '/_admin/requests')).body).toHaveLength(2);
  });
});

describe('an assertion sees all it counts, or fails', () => {
  it('refuses an account, a path or a mark that names nothing, with the nearest one', async () => {
    const s = await sandbox(['--token', 'app-token:acc_app']);
    expect((await s.run(['sandbox', 'mark', 'app', '-q'])).exitCode).toBe(0);
    const account = await s.run(['sandbox', 'requests', '--since', 'app', '--account', 'acc_cii', '--expect', '0']);
    expect(account.exitCode).toBe(3);
    expect(String(account.stdout)).toBe('');
    expect(String(account.stderr)).toMatch(/no token of the server has the account acc_cii/);
    expect(String(account.stderr)).toMatch(/did you mean acc_ci\?/);
    const path = await s.run(['sandbox', 'requests', '--path', '/insurance-coverage', '--expect', '0']);
    expect(path.exitCode).toBe(3);
    expect(String(path.stderr)).toMatch(
      /no path the server answers matches --path \/insurance-coverage\n.*did you mean \/insurance-coverages\?/,
    );
    const mark = await s.run(['sandbox', 'requests', '--since', 'ap', '--expect', '0']);
    expect(mark.exitCode).toBe(3);
    expect(String(mark.stderr)).toMatch(/the server has no mark named ap\n.*did you mean app\?/);
    // What does name something passes: a route with an id, a glob over routes, each token's account.
    for (const ok of [
      ['--path', '/insurance-coverages/cov_1'],
      ['--path', '/insurance-*'],
      ['--account', 'acc_app'],
    ]) {
      const r = await s.run(['sandbox', 'requests', '--since', 'app', ...ok, '--expect', '0']);
      expect(r.exitCode, `${ok.join(' ')}: ${r.stderr}`).toBe(0);
    }
  }, 60_000);

  it('fails a count over a window the journal dropped requests of, naming the limit to raise', async () => {
    const s = await sandbox(['--journal-requests', '5']);
    expect((await s.run(['sandbox', 'mark', 'app', '-q'])).exitCode).toBe(0);
    for (let i = 0; i < 8; i++) expect((await s.call('GET', '/notifications')).status).toBe(200);
    const r = await s.run(['sandbox', 'requests', '--since', 'app', '--expect', '8']);
    expect(r.exitCode).toBe(1);
    expect(String(r.stderr)).toContain(
      'the request journal dropped 3 requests since mark app (it keeps --journal-requests 5)',
    );
    expect(String(r.stderr)).toContain('start serve with a larger --journal-requests');
    // Without --expect the list is shown, with the same words as a warning.
    const list = await s.run(['sandbox', 'requests', '--since', 'app', '-o', 'json']);
    expect(list.exitCode).toBe(0);
    expect(JSON.parse(String(list.stdout))).toHaveLength(5);
    expect(String(list.stderr)).toMatch(/^warning: the request journal dropped 3 requests since mark app/);
  }, 60_000);

  it('fails every count when the journal is off', async () => {
    const s = await sandbox(['--journal-requests', '0']);
    expect((await s.run(['sandbox', 'mark', 'app', '-q'])).exitCode).toBe(0);
    expect((await s.call('GET', '/notifications')).status).toBe(200);
    const r = await s.run(['sandbox', 'requests', '--since', 'app', '--method', 'DELETE', '--expect', '0']);
    expect(r.exitCode).toBe(1);
    expect(String(r.stderr)).toMatch(/the request journal is off, so the 1 request since mark app cannot be counted/);
  }, 60_000);

  it('never counts a request refused for want of a valid token, and says it was there', async () => {
    const s = await sandbox();
    expect((await s.run(['sandbox', 'mark', 'app', '-q'])).exitCode).toBe(0);
    expect((await s.call('GET', '/notifications', undefined, 'not-a-token')).status).toBe(401);
    const r = await s.run(['sandbox', 'requests', '--since', 'app', '--path', '/notifications', '--expect', '1']);
    expect(r.exitCode).toBe(1);
    expect(String(r.stderr)).toContain('expected 1 request matching /notifications since app, found 0');
    expect(String(r.stderr)).toContain('1 request without a valid token (401 or 403) in the window is not counted');
  }, 60_000);
});

describe('a refused request is a request', () => {
  it('keeps its body, so a check matches it by body and status', async () => {
    const s = await sandbox(['--record-bodies']);
    expect((await s.run(['sandbox', 'mark', 'app', '-q'])).exitCode).toBe(0);
    // The app creates a coverage for a contract the server does not hold: 422, as the API says.
    const sent = { contract: 'ctr_globex_2027', name: 'Globex copay', type: 'deduction', amount: 12 };
    expect((await s.call('POST', '/insurance-coverages', sent)).status).toBe(422);
    const check = (status: string) =>
      s.run([
        'sandbox',
        'requests',
        '--since',
        'app',
        '--body',
        '{"contract":"ctr_globex_2027","type":"deduction"}',
        '--status',
        status,
        '--expect',
        '1',
        '-o',
        'json',
      ]);
    const refused = await check('422');
    expect(refused.exitCode, String(refused.stderr)).toBe(0);
    expect(JSON.parse(String(refused.stdout))).toMatchObject([{ status: 422, body: sent }]);
    const accepted = await check('200');
    expect(accepted.exitCode).toBe(1);
    expect(String(accepted.stderr)).toMatch(/^expected 1 request matching .*status 200.*, found 0/);
    // The near miss: the refused POST, with what it differs in.
    expect(String(accepted.stderr)).toContain(
      'the nearest request of the window (1 did not match):\n  POST /insurance-coverages acc_ci 422: differs in status',
    );
    // A body that differs is shown field by field.
    const other = await s.run([
      'sandbox',
      'requests',
      '--since',
      'app',
      '--body',
      '{"contract":"ctr_globex_2026"}',
      '--expect',
      '1',
    ]);
    expect(other.exitCode).toBe(1);
    expect(String(other.stderr)).toContain(
      '  POST /insurance-coverages acc_ci 422: differs in body\n' +
        '    body.contract: "ctr_globex_2027", not "ctr_globex_2026"',
    );
  }, 60_000);
});

describe('the sandbox answers a bad name or a reordered contract as a request, not a fault', () => {
  it('answers a name that is not percent-encoded UTF-8 with a 400 problem', async () => {
    const s = await sandbox();
    for (const path of ['/_admin/snapshots/%E0%A4%A', '/_admin/marks/%ZZ']) {
      const res = await fetch(s.url + path, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status, path).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect((await res.json()).detail).toContain('not percent-encoded UTF-8');
    }
    // Still serving, and nothing was logged as a fault.
    expect((await s.call('GET', '/_admin/snapshots')).status).toBe(200);
  }, 60_000);

  it('takes the same contract again with its fields in another order, changing nothing', async () => {
    const s = await sandbox();
    const contract = {
      id: 'ctr_globex_2027',
      insured: 'org_central_lab',
      insurer: 'org_globex',
      insurerType: 'private',
    };
    expect((await s.call('POST', '/_admin/contracts', contract)).status).toBe(200);
    const reordered = {
      insurerType: 'private',
      insurer: 'org_globex',
      insured: 'org_central_lab',
      id: 'ctr_globex_2027',
    };
    const again = await s.call('POST', '/_admin/contracts', reordered);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(contract);
    const other = await s.call('POST', '/_admin/contracts', { ...reordered, insurer: 'org_other' });
    expect(other.status).toBe(409);
  }, 60_000);
});

describe('faults set while serve runs', () => {
  it('sets a --fail-on rule and a latency, journals it, and a reset to a snapshot clears it', async () => {
    const s = await sandbox();
    expect((await s.run(['sandbox', 'snapshot', 'seeded', '-q'])).exitCode).toBe(0);
    const set = await s.run([
      'sandbox',
      'faults',
      'set',
      '--fail-on',
      'POST:/insurance-coverages:500',
      '--latency',
      '1-5',
    ]);
    expect(set.exitCode, String(set.stderr)).toBe(0);
    expect(String(set.stderr)).toBe('set faults: --fail-on POST:/insurance-coverages:500 --latency 1-5');
    const failed = await s.coverage('Injected');
    expect(failed.status).toBe(500);
    expect(failed.body.detail).toBe(
      'injected by sandbox faults set --fail-on POST:/insurance-coverages:500; nothing was changed',
    );
    // Other requests are answered as ever.
    expect((await s.call('GET', '/insurance-coverages')).status).toBe(200);
    const listed = await s.run(['sandbox', 'faults', 'list', '-o', 'json']);
    expect(JSON.parse(String(listed.stdout))).toEqual({ failOn: ['POST:/insurance-coverages:500'], latency: '1-5' });
    // The next test file starts from the snapshot: no fault left behind.
    expect((await s.run(['sandbox', 'reset', 'seeded', '-q'])).exitCode).toBe(0);
    expect((await s.coverage('After reset')).status).toBe(200);
    const none = await s.run(['sandbox', 'faults', 'list', '-o', 'json']);
    expect(JSON.parse(String(none.stdout))).toEqual({ failOn: [], latency: null });
    const { actions } = (await s.call('GET', '/_admin/journal')).body;
    expect(actions.map((a: { account: string; action: string }) => `${a.account}: ${a.action}`)).toEqual([
      'acc_ci: faults set: {"failOn":["POST:/insurance-coverages:500"],"latency":"1-5"}',
      'acc_ci: faults cleared by reset',
    ]);
  }, 60_000);

  it('refuses a rule serve --fail-on would refuse, before sending, and clears on demand', async () => {
    const s = await sandbox();
    const bad = await s.run(['sandbox', 'faults', 'set', '--fail-on', 'POST:/insurance-coverages:200']);
    expect(bad.exitCode).toBe(2);
    expect(String(bad.stderr)).toContain('--fail-on must be METHOD:PATH-PATTERN:STATUS with a status from 400 to 599');
    expect((await s.call('PUT', '/_admin/faults', { failOn: ['nope'] })).status).toBe(400);
    expect((await s.call('PUT', '/_admin/faults', { failOn: ['*:/notifications*:503'] })).status).toBe(200);
    expect((await s.call('GET', '/notifications')).status).toBe(503);
    const cleared = await s.run(['sandbox', 'faults', 'clear']);
    expect(String(cleared.stderr)).toBe('cleared the faults set at run time');
    expect((await s.call('GET', '/notifications')).status).toBe(200);
  }, 60_000);
});

describe('headers a test checks', () => {
  it('keeps the allow-listed request headers, never a credential, and matches them with --header', async () => {
    const s = await sandbox(['--journal-header', 'X-Tenant']);
    expect((await s.run(['sandbox', 'mark', 'app', '-q'])).exitCode).toBe(0);
    const res = await fetch(`${s.url}/notifications`, {
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'idempotency-key': 'order-17',
        'x-request-id': 'req-1',
        'x-tenant': 'lab-a',
        'x-other': 'not kept',
        cookie: 'session=secret-cookie',
      },
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const [entry] = (await s.call('GET', '/_admin/requests?since=app')).body;
    expect(entry.headers).toMatchObject({
      'idempotency-key': 'order-17',
      'x-request-id': 'req-1',
      'x-tenant': 'lab-a',
    });
    const allowed = ['idempotency-key', 'x-request-id', 'content-type', 'user-agent', 'x-tenant'];
    for (const name of Object.keys(entry.headers)) expect(allowed).toContain(name);
    expect(JSON.stringify(entry)).not.toMatch(/secret-cookie|not kept|sandbox-token/);
    const hit = await s.run([
      'sandbox',
      'requests',
      '--since',
      'app',
      '--header',
      'Idempotency-Key=order-17',
      '--header',
      'X-Tenant=lab-a',
      '--expect',
      '1',
    ]);
    expect(hit.exitCode, String(hit.stderr)).toBe(0);
    const miss = await s.run([
      'sandbox',
      'requests',
      '--since',
      'app',
      '--header',
      'Idempotency-Key=order-18',
      '--expect',
      '1',
    ]);
    expect(miss.exitCode).toBe(1);
    expect(String(miss.stderr)).toContain('  GET /notifications acc_ci 200: differs in header idempotency-key');
    const unkept = await s.run(['sandbox', 'requests', '--header', 'X-Other=1', '--expect', '0']);
    expect(unkept.exitCode).toBe(1);
    expect(String(unkept.stderr)).toContain('the request journal keeps no x-other header');
  }, 60_000);

  it('refuses to be told to keep a credential', async () => {
    const r = await clinadmin(['serve', '--port', '0', '--journal-header', 'Cookie']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('--journal-header');
  }, 60_000);
});

describe('every sandbox verb speaks alike', () => {
  it('suggests the snapshot meant, takes -q on every verb, and counts in agreement', async () => {
    const s = await sandbox();
    expect((await s.run(['sandbox', 'snapshot', 'seeded', '-q'])).exitCode).toBe(0);
    const typo = await s.run(['sandbox', 'reset', 'seedd']);
    expect(typo.exitCode).toBe(3);
    expect(String(typo.stderr)).toMatch(/the server has no snapshot named seedd\n.*did you mean seeded\?/);
    for (const args of [
      ['snapshots'],
      ['contracts', 'add', 'ctr_q', '--insured', 'org_a', '--insurer', 'org_b'],
      ['faults', 'list'],
      ['faults', 'clear'],
      ['requests'],
      ['mark', 'm'],
    ]) {
      const r = await s.run(['sandbox', ...args, '-q']);
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(String(r.stderr), args.join(' ')).toBe('');
    }
    const one = join(s.folder, 'one.json');
    const contract = { id: 'ctr_one', insured: 'org_a', insurer: 'org_b' };
    await writeFile(one, JSON.stringify({ contracts: [contract], insuranceCoverages: [] }));
    const loaded = await s.run(['sandbox', 'load', one]);
    expect(String(loaded.stderr)).toBe(
      `loaded ${one}: the server holds 0 measures, 0 coverages, 0 notifications, 1 contract`,
    );
  }, 60_000);
});
