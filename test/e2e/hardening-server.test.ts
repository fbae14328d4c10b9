// Covers: src/server/http/read-body.ts src/server/http/app.ts src/server/start.ts src/server/store/store.ts
// Covers: src/formats/json/json-error.ts
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serveProcess } from '../helpers/bin.js';
import { TOKEN, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

const POST_HEAD =
  'POST /diagnostic-measures HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\n';

/** Opens a raw socket, writes what is given, and resolves when the server closes it, with what it said. */
function raw(url: string, chunks: string[], gapMs = 0): Promise<{ closedAfterMs: number; reply: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    let reply = '';
    const socket = connect(Number(port), hostname, async () => {
      for (const c of chunks) {
        socket.write(c);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
    socket.on('data', (d) => (reply += d.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ closedAfterMs: Date.now() - started, reply }));
  });
}

describe('the server under random and malformed requests', () => {
  it('never answers 5xx, refuses with problem+json, and keeps the data file valid', async () => {
    const s = await testServer({ seed: true, maxBody: 4096 });
    const methods = fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'HEAD', 'TRACE');
    const paths = fc.oneof(
      fc.constantFrom(
        '/diagnostic-measures',
        '/insurance-coverages',
        '/notifications',
        '/diagnostic-measures/msr_hgb',
        '/insurance-coverages/cov_acme_cbc',
        '/notifications/ntf_queue_1',
        '/',
        '/diagnostic-measures/',
      ),
      fc
        .array(
          fc.oneof(
            fc.constantFrom(
              'diagnostic-measures',
              'insurance-coverages',
              'notifications',
              '..',
              '%00',
              '%E0%A4%A',
              '?x=1',
            ),
            fc.string(),
          ),
          { maxLength: 4 },
        )
        .map((p) => `/${p.map(encodeURI).join('/')}`),
    );
    const bodies = fc.oneof(
      fc.constant(undefined),
      fc.json(),
      fc.string(),
      fc
        .record(
          {
            test: fc.string(),
            name: fc.string(),
            type: fc.string(),
            referenceRanges: fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 3 }),
          },
          { requiredKeys: [] },
        )
        .map((o) => JSON.stringify(o)),
      fc
        .record(
          {
            contract: fc.constantFrom('ctr_acme_2026', 'nope'),
            name: fc.string(),
            type: fc.constantFrom('deduction', 'override', 'x'),
            percentage: fc.double(),
            amount: fc.double(),
          },
          { requiredKeys: [] },
        )
        .map((o) => JSON.stringify(o)),
    );
    const types = fc.constantFrom(
      'application/json',
      'application/problem+json',
      'text/plain',
      '',
      'application/json; charset=utf-8',
      'multipart/form-data',
    );
    const auths = fc.constantFrom(
      `Bearer ${TOKEN}`,
      `Bearer ${TOKEN}`,
      `Bearer ${TOKEN}`,
      'Bearer nope',
      '',
      `bearer ${TOKEN}`,
      'Basic abc',
    );
    let requests = 0;
    await fc.assert(
      fc.asyncProperty(methods, paths, bodies, types, auths, async (method, path, body, type, auth) => {
        const headers: Record<string, string> = {};
        if (auth) headers.authorization = auth;
        if (type) headers['content-type'] = type;
        let res: Response;
        try {
          res = await fetch(s.url + path, {
            method,
            headers,
            body: method === 'GET' || method === 'HEAD' ? undefined : body,
          });
        } catch {
          return; // fetch itself refuses some methods and URLs before sending: nothing reached the server
        }
        requests++;
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
        const text = await res.text();
        if (res.status >= 400 && method !== 'HEAD') {
          expect(res.headers.get('content-type')).toBe('application/problem+json');
          const p = JSON.parse(text);
          expect(p.status).toBe(res.status);
          expect(typeof p.title).toBe('string');
          expect(text).not.toMatch(/\/work\/|node_modules|at .*\.ts:\d+/);
        }
      }),
      { numRuns: 400 },
    );
    expect(requests).toBeGreaterThan(200);
    await s.close();
    const data = JSON.parse(await readFile(s.dataFile, 'utf8'));
    expect(Object.keys(data)).toEqual([
      'formatVersion',
      'diagnosticMeasures',
      'insuranceCoverages',
      'notifications',
      'contracts',
    ]);
    console.log(`property test: ${requests} random requests, no 5xx`);
  }, 120_000);

  it('refuses an ambiguous body: duplicate keys and absurd nesting', async () => {
    const s = await testServer();
    const dup = await s.call('POST', '/diagnostic-measures', '{"test":"t","name":"a","name":"b"}');
    expect(dup.status).toBe(400);
    expect(dup.body.detail).toContain('line 1, column 24: duplicate key "name" in one object');
    const deep = await s.call(
      'POST',
      '/diagnostic-measures',
      `{"test":"t","name":"a","section":${'['.repeat(600)}${']'.repeat(600)}}`,
    );
    expect(deep.status).toBe(400);
    expect(deep.body.detail).toContain('nesting deeper than 512 levels');
  });
});

describe('faults of the disk', () => {
  it.each([
    ['the disk is full', 'ENOSPC', 'the disk is full'],
    ['the folder becomes read-only', 'EROFS', 'the folder is not writable'],
  ])('answers 503 and acknowledges nothing while %s, keeps serving reads, and recovers', async (_what, code, why) => {
    const s = await testServer({ seed: true });
    // The journal file's handle (src/server/store/journal-file.ts), where a full disk or a read-only folder shows.
    type Handle = { datasync: () => Promise<void> };
    const journal = (s.store as unknown as { journal: { fh: Handle } }).journal.fh;
    const real = journal.datasync.bind(journal);
    journal.datasync = async () => {
      throw Object.assign(new Error(`${code}: injected fault, write`), { code });
    };
    const post = await s.call('POST', '/diagnostic-measures', { test: 't', name: 'Lost?' });
    expect(post.status).toBe(503);
    expect(post.headers.get('content-type')).toBe('application/problem+json');
    expect(post.headers.get('retry-after')).toBe('5');
    expect(post.body.detail).toMatch(new RegExp(`could not be saved to .*: ${why}; nothing was changed`));
    const patch = await s.call('PATCH', '/diagnostic-measures/msr_k', { unit: 'mmol/L' });
    expect(patch.status).toBe(503);
    const read = await s.call('GET', '/diagnostic-measures');
    expect(read.status).toBe(200);
    expect(read.body.map((m: { name: string }) => m.name)).not.toContain('Lost?');
    expect((await s.call('GET', '/diagnostic-measures/msr_k')).body.unit).toBe('mEq/L');
    journal.datasync = real;
    const again = await s.call('POST', '/diagnostic-measures', { test: 't', name: 'Kept' });
    expect(again.status).toBe(200);
    await s.close();
    const names = JSON.parse(await readFile(s.dataFile, 'utf8')).diagnosticMeasures.map(
      (m: { name: string }) => m.name,
    );
    expect(names).toContain('Kept');
    expect(names).not.toContain('Lost?');
  });
});

describe('slow and oversized requests', () => {
  it('cuts off endless headers and a body that never finishes', async () => {
    const dir = await tempDir();
    const s = await serveProcess([
      '--data',
      join(dir, 'd.json'),
      '--token',
      't',
      '--headers-timeout',
      '500',
      '--request-timeout',
      '1000',
    ]);
    const headers = await raw(s.url, ['GET /notifications HTTP/1.1\r\nHost: x\r\n', 'X-Slow: 1\r\n'], 50);
    expect(headers.closedAfterMs).toBeLessThan(3000);
    expect(headers.reply).toMatch(/^HTTP\/1\.1 408|^$/);
    const body = await raw(s.url, [`${POST_HEAD}Content-Length: 100\r\n\r\n{"test":`]);
    expect(body.closedAfterMs).toBeLessThan(4000);
    const res = await fetch(`${s.url}/diagnostic-measures`, { headers: { authorization: 'Bearer t' } });
    expect(await res.json()).toEqual([]);
    // A client cut off (or hanging up) mid-body is not a fault of the server.
    expect(s.stderr()).not.toMatch(/unexpected fault/);
    s.proc.kill('SIGTERM');
    await s.proc;
  });

  it('stops reading a chunked body at the limit, answers 413, and closes a client that then stalls', async () => {
    const dir = await tempDir();
    const s = await serveProcess(['--data', join(dir, 'd.json'), '--token', 't', '--max-body', '1000']);
    const chunk = `320\r\n${'x'.repeat(800)}\r\n`;
    const head = `${POST_HEAD}Transfer-Encoding: chunked\r\n\r\n`;
    // The body never ends: the server answers, discards what follows, and cuts the idle connection.
    const r = await raw(s.url, [head, chunk, chunk], 50);
    expect(r.reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(r.closedAfterMs).toBeLessThan(3000);
    s.proc.kill('SIGTERM');
    await s.proc;
  });

  it('refuses a body over the limit from its declared length, before reading it', async () => {
    const dir = await tempDir();
    const s = await serveProcess(['--data', join(dir, 'd.json'), '--token', 't', '--max-body', '1000']);
    const r = await raw(s.url, [`${POST_HEAD}Content-Length: 50000000\r\n\r\n{"test":`]);
    expect(r.reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(r.reply).toContain('the body is larger than the limit of 1000 bytes');
    expect(r.closedAfterMs).toBeLessThan(3000);
    s.proc.kill('SIGTERM');
    await s.proc;
  });
});
