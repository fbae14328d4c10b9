// Covers: src/testing/
import { spawn } from 'node:child_process';
import { access, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ExpectationError,
  type RecordedRequest,
  type RequestFilter,
  ServeError,
  type ServeOptions,
  type Snapshot,
  startServe,
  type TestServe,
} from 'clinadmin/testing';
import { execa } from 'execa';
import { afterAll, beforeAll, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { run } from '../../src/cli.js';
import type { Run } from '../../src/testing/protocol.js';
import { tempDir } from '../helpers/tmp.js';

// clinadmin/testing as a suite uses it: imported by the package's name (its exports, the built dist/), serve in
// a child process, every verb answered by the server. The jest-shaped CommonJS suite and node:test run below.

const fixtures = fileURLToPath(new URL('../fixtures/testing/', import.meta.url));
const acme = { id: 'ctr_acme_2026', insured: 'org_central_lab', insurer: 'org_acme_health' };
const cbc = { contract: acme.id, name: 'CBC copay', type: 'deduction', amount: 10 };
const SEED = { contracts: [acme], insuranceCoverages: [cbc] };
const OPTIONS: ServeOptions = { seed: SEED, tokens: ['app-token:acc_app'] };

/** The app under test: a request as any client sends it, with the app's own token. */
async function send(api: TestServe, method: string, path: string, body?: object) {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: 'Bearer app-token', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}
const names = async (api: TestServe) =>
  ((await send(api, 'GET', '/insurance-coverages')).body as { name: string }[]).map((c) => c.name).sort();

const gone = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};
/** Waits until the process is gone: it is not our child, so there is no exit event to wait on. */
async function waitGone(pid: number) {
  for (let i = 0; i < 600 && !gone(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return gone(pid);
}
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

it("holds run() as the bundle's cli.cjs gives it", () => {
  expectTypeOf<typeof run>().toExtend<Run>();
});

it('types the filters and the requests as sandbox requests has them', () => {
  expectTypeOf<RequestFilter['header']>().toEqualTypeOf<string | string[] | undefined>();
  expectTypeOf<RecordedRequest['headers']>().toEqualTypeOf<Record<string, string> | undefined>();
  expectTypeOf<ExpectationError['requests']>().toEqualTypeOf<RecordedRequest[]>();
});

describe('one serve for a suite', () => {
  let api: TestServe;
  beforeAll(async () => {
    api = await startServe(OPTIONS);
  });
  afterAll(() => api?.close());
  beforeEach(() => api.reset());

  it('listens on 127.0.0.1 at a free port with the seed, for the app token and for the CLI', async () => {
    expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await names(api)).toEqual(['CBC copay']);
    const refused = await fetch(`${api.url}/insurance-coverages`, { headers: { authorization: 'Bearer nope' } });
    expect(refused.status).toBe(401);
    const cli = await execa(
      process.execPath,
      [join(fixtures, '../../../bin/clinadmin.cjs'), 'coverages', 'list', '-o', 'json'],
      {
        env: { ...api.env, CLINADMIN_CONFIG_DIR: await tempDir(), NO_COLOR: '1' },
        reject: false,
      },
    );
    expect(cli.exitCode, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout).map((c: { name: string }) => c.name)).toEqual(['CBC copay']);
  });

  it('lists what the app sent by each filter, after a mark, and checks a count', async () => {
    await send(api, 'GET', '/insurance-coverages');
    await api.mark('app');
    const lipid = { contract: acme.id, name: 'Lipid panel', type: 'override', percentage: 70 };
    expect((await send(api, 'POST', '/insurance-coverages', lipid)).status).toBe(200);
    expect((await send(api, 'POST', '/insurance-coverages', { contract: acme.id })).status).toBe(400);
    const since = await api.requests({ since: 'app' });
    expect(since.map((r) => [r.method, r.path, r.status])).toEqual([
      ['POST', '/insurance-coverages', 200],
      ['POST', '/insurance-coverages', 400],
    ]);
    expect(await api.requests({ method: 'GET' })).toHaveLength(1);
    expect(await api.requests({ status: 400 })).toHaveLength(1);
    expect(await api.requests({ path: '/insurance-*', account: 'acc_app' })).toHaveLength(3);
    // An account no token has is a typo, refused with the nearest names (issue 63), never an empty list.
    await expect(api.requests({ account: 'acc_other' })).rejects.toThrow(
      /no token of the server has the account acc_other/,
    );
    const held: RecordedRequest[] = await api.expectRequests(1, { method: 'POST', body: { name: 'Lipid panel' } });
    expect(held[0].body).toEqual(lipid);
    const miss = await api.expectRequests(2, { method: 'POST', status: 200 }).catch((e: unknown) => e);
    expect(miss).toBeInstanceOf(ExpectationError);
    expect((miss as ExpectationError).message).toMatch(/expected 2 requests .*found 1/);
    expect((miss as ExpectationError).requests).toHaveLength(1);
    const keyed = { authorization: 'Bearer app-token', 'idempotency-key': 'order-17' };
    await fetch(`${api.url}/insurance-coverages`, { headers: keyed });
    const [one] = await api.requests({ header: 'Idempotency-Key=order-17' });
    expect(one.headers).toMatchObject({ 'idempotency-key': 'order-17' });
    // Each header of a list must hold, as the flag given twice.
    expect(await api.requests({ header: ['Idempotency-Key=order-17', 'X-Request-Id=r1'] })).toEqual([]);
    await api.clearRequests();
    expect(await api.requests()).toEqual([]);
  });

  it('says what the CLI says when a verb is refused', async () => {
    const err = await api.reset('never-saved').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServeError);
    expect((err as ServeError).exitCode).toBe(3);
    expect((err as ServeError).message).toMatch(/no snapshot named never-saved/);
    // A name is data, never a flag: one the server refuses is refused by the server's rule, as
    // `clinadmin sandbox snapshot -- --help` refuses it.
    for (const [make, what] of [
      [() => api.snapshot('--help'), 'snapshot'],
      [() => api.mark('-q'), 'mark'],
    ] as const) {
      const named = await make().catch((e: unknown) => e);
      expect(named).toBeInstanceOf(ServeError);
      expect((named as ServeError).message).toMatch(new RegExp(`a ${what} name is letters, digits, .*; got "-`));
    }
    const mark = await api.requests({ since: 'no-such-mark' }).catch((e: unknown) => e);
    expect((mark as ServeError).message).toMatch(/no mark named no-such-mark/);
    // A filter is its flag: one the CLI does not have is refused by name, never ignored.
    const typo = await api.requests({ methd: 'POST' }).catch((e: unknown) => e);
    expect([(typo as ServeError).exitCode, (typo as ServeError).message]).toEqual([
      2,
      expect.stringMatching(/--methd/),
    ]);
  });

  it('runs any sandbox verb by its words, as the command line takes them', async () => {
    await api.snapshot('by-words');
    const listed = (await api.sandbox(['snapshots'])) as Snapshot[];
    expect(listed.map((s) => s.name)).toContain('by-words');
    const unknown = await api.sandbox(['no-such-verb']).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ServeError);
    expect((unknown as ServeError).exitCode).toBe(2);
    expect((unknown as ServeError).message).toMatch(/no-such-verb/);
    // Words that print text rather than JSON (help, as `clinadmin sandbox snapshots --help` prints it).
    const help = await api.sandbox(['snapshots', '--help']).catch((e: unknown) => e);
    expect(help).toBeInstanceOf(ServeError);
    expect([(help as ServeError).exitCode, (help as ServeError).message]).toEqual([
      2,
      expect.stringMatching(/^error: clinadmin sandbox snapshots --help printed text, not JSON: Usage: /),
    ]);
  });

  it('snapshots and resets to a snapshot, clearing the journal', async () => {
    const saved: Snapshot = await api.snapshot('seeded');
    expect([saved.name, saved.coverages]).toEqual(['seeded', 1]);
    await send(api, 'POST', '/insurance-coverages', { ...cbc, name: 'Extra' });
    expect(await names(api)).toEqual(['CBC copay', 'Extra']);
    expect((await api.snapshots()).map((s) => s.name)).toContain('seeded');
    expect(await api.reset('seeded')).toMatchObject({ snapshot: 'seeded', coverages: 1 });
    expect(await names(api)).toEqual(['CBC copay']);
    expect(await api.requests({ method: 'POST' })).toEqual([]);
  });
});

describe('a serve of its own', () => {
  it('loads a state from an object or a file, merges one, and adds a contract', async () => {
    await using api = await startServe(OPTIONS);
    const file = join(await tempDir(), 'state.json');
    await writeFile(file, JSON.stringify({ contracts: [acme], insuranceCoverages: [{ ...cbc, name: 'From file' }] }));
    expect(await api.load(file)).toMatchObject({ merge: false, coverages: 1, contracts: 1 });
    expect(await names(api)).toEqual(['From file']);
    await api.load({ contracts: [acme], insuranceCoverages: [{ ...cbc, name: 'Merged' }] }, { merge: true });
    expect(await names(api)).toEqual(['From file', 'Merged']);
    // A reset without a name goes back to the last state loaded.
    await send(api, 'POST', '/insurance-coverages', { ...cbc, name: 'Later' });
    await api.reset();
    expect(await names(api)).toEqual(['From file', 'Merged']);
    const globex = { id: 'ctr_globex_2027', insured: 'org_central_lab', insurer: 'org_globex', insurerType: 'private' };
    expect(await api.addContract(globex)).toEqual(globex);
    const made = await send(api, 'POST', '/insurance-coverages', { ...cbc, contract: globex.id });
    expect(made.body).toMatchObject({ insurer: 'org_globex', insurerType: 'private' });
  });

  it('injects the faults serve has: a refused POST changes nothing', async () => {
    await using api = await startServe({ ...OPTIONS, faults: { failOn: ['POST:/insurance-coverages:500'] } });
    expect((await send(api, 'POST', '/insurance-coverages', { ...cbc, name: 'Refused' })).status).toBe(500);
    expect(await names(api)).toEqual(['CBC copay']);
    await api.expectRequests(1, { method: 'POST', status: 500 });
  });

  it("starts, answers the verbs and stops while the test's timers are fake (serve has its own process)", async () => {
    // What jest's fake timers fake by default, the queue of microtasks included (vitest's forks cannot fake
    // nextTick).
    const timers = ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval'];
    vi.useFakeTimers({ toFake: [...timers, 'Date', 'hrtime', 'performance', 'queueMicrotask'] as never });
    try {
      // Only the handle while they are fake: the test's own fetch waits on the faked queue of microtasks.
      await using api = await startServe(OPTIONS);
      expect(await api.mark('faked')).toEqual({ mark: 'faked', requests: 0 });
      expect(await api.snapshot('faked')).toMatchObject({ name: 'faked', coverages: 1 });
      expect(await api.requests({ since: 'faked' })).toEqual([]);
      expect(await api.reset('faked')).toMatchObject({ snapshot: 'faked', coverages: 1 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a bad seed with the sentence serve says, naming the seed', async () => {
    const bad = { contracts: [acme], insuranceCoverages: [{ ...cbc, amount: -5 }] };
    const err = await startServe({ seed: bad }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServeError);
    expect((err as ServeError).message).toMatch(
      /^error: seed: insuranceCoverages record 1: amount: must not be negative/,
    );
    expect((err as ServeError).exitCode).toBe(2);
  });

  it('leaves no folder when serve does not answer within startTimeout', async () => {
    // A token file nobody writes yet (a pipe, as `--token-file <(...)` gives) holds serve before it listens.
    const tmp = await tempDir();
    const pipe = join(await tempDir(), 'tokens');
    await execa('mkfifo', ['-m', '600', pipe]);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      const err = await startServe({ args: ['--token-file', pipe], startTimeout: 1000 }).catch((e: unknown) => e);
      expect((err as ServeError).message).toBe('clinadmin serve did not answer within 1000 ms');
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(await readdir(tmp)).toEqual([]);
  });

  it('keeps a data file it was given, and removes the temporary one at close', async () => {
    const own = join(await tempDir(), 'api.json');
    const kept = await startServe({ ...OPTIONS, dataFile: own });
    expect(kept.dataFile).toBe(own);
    await send(kept, 'POST', '/insurance-coverages', { ...cbc, name: 'Saved' });
    await kept.close();
    const saved = JSON.parse(await readFile(own, 'utf8')) as { insuranceCoverages: { name: string }[] };
    expect(saved.insuranceCoverages.map((c) => c.name).sort()).toEqual(['CBC copay', 'Saved']);

    const temporary = await startServe(OPTIONS);
    await temporary.close();
    await temporary.close(); // again: nothing
    expect(gone(temporary.pid)).toBe(true);
    await expect(temporary.requests()).rejects.toThrow(/^clinadmin serve has stopped; it said:\n.*SIGTERM/);
    expect(await exists(dirname(temporary.dataFile))).toBe(false);
  });
});

describe('a test process that ends without close()', () => {
  // The suite that crashed: killed outright, or ended by an uncaught error, or that forgot close().
  it.for(['SIGKILL', 'throw', 'forget'])('stops its serve and removes its data (%s)', async (how) => {
    const suite = spawn(process.execPath, [join(fixtures, 'crash.mjs'), how], { stdio: ['ignore', 'pipe', 'pipe'] });
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      suite.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0]);
      });
      suite.once('exit', (code) => reject(new Error(`the suite exited ${code} before serve started`)));
    });
    const { pid, dataFile } = JSON.parse(line) as { pid: number; dataFile: string };
    if (how === 'SIGKILL') suite.kill('SIGKILL');
    expect(await waitGone(pid)).toBe(true);
    expect(await exists(dirname(dataFile))).toBe(false);
  });
});

describe('clinadmin/testing under node:test', () => {
  it('runs an ES module suite and a CommonJS one (require(), as a jest project of today)', async () => {
    const r = await execa(
      process.execPath,
      ['--test', '--test-reporter=spec', join(fixtures, 'node-test.mjs'), join(fixtures, 'require.test.cjs')],
      {
        reject: false,
        env: { NO_COLOR: '1' },
      },
    );
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/^ℹ pass 3$/m);
    expect(r.stdout).toMatch(/^ℹ fail 0$/m);
  });
});
