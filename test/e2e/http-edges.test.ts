// Covers: src/server/http/app.ts src/server/http/problem.ts src/server/http/read-body.ts
import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOKEN, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

/** Writes a raw request and resolves with the status, headers and body of the answer once the socket closes. */
function rawRequest(url: string, request: string): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let reply = '';
    const socket = connect(Number(port), hostname, () => socket.end(request));
    socket.on('data', (d) => (reply += d.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const [head, ...rest] = reply.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: rest.join('\r\n\r\n') });
    });
  });
}

const AUTH = `Authorization: Bearer ${TOKEN}\r\n`;
const POST = `POST /diagnostic-measures HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\n`;

describe('every HTTP error is problem+json, parser errors too', () => {
  const cases: [string, string, number][] = [
    ['conflicting Content-Length', `${POST}Content-Length: 5\r\nContent-Length: 6\r\n\r\n{"a":1}`, 400],
    ['Content-Length with chunked', `${POST}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 400],
    ['a bad chunk', `${POST}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`, 400],
    ['an 80 KB header', `GET /notifications HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(80_000)}\r\n\r\n`, 431],
    ['a 100 KB URL', `GET /notifications?q=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 414],
    ['two Authorization headers', `GET /notifications HTTP/1.1\r\nHost: x\r\n${AUTH}${AUTH}\r\n`, 400],
  ];
  for (const [what, request, status] of cases) {
    it(`answers ${what} with ${status}`, async () => {
      const s = await testServer();
      const r = await rawRequest(s.url, request);
      expect(r.status).toBe(status);
      expect(r.headers).toContain('content-type: application/problem+json');
      expect(JSON.parse(r.body)).toMatchObject({ status, type: expect.stringMatching(/^urn:clinadmin:problem:/) });
    });
  }

  it('refuses a charset other than UTF-8 and merge-patch+json with 415, and stores nothing', async () => {
    const s = await testServer();
    const body = { test: 't', name: 'Caf\u00e9' };
    for (const type of ['application/json; charset=latin1', 'application/json; charset="ISO-8859-1"']) {
      const r = await s.call('POST', '/diagnostic-measures', body, { 'content-type': type });
      expect(r.status, type).toBe(415);
      expect(r.body.detail).toMatch(/UTF-8/);
    }
    const ok = await s.call('POST', '/diagnostic-measures', body, {
      'content-type': 'application/json; charset=UTF-8',
    });
    expect(ok.status).toBe(200);
    const merge = await s.call(
      'PATCH',
      `/diagnostic-measures/${ok.body.id}`,
      { unit: null },
      {
        'content-type': 'application/merge-patch+json',
      },
    );
    expect(merge.status).toBe(415);
    expect(merge.body.detail).toMatch(/merge-patch\+json is not supported/);
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([ok.body]);
  });
});

describe('HEAD', () => {
  it('works wherever GET does, with GET’s headers and no body, and marks nothing seen', async () => {
    const s = await testServer({ seed: true });
    for (const path of ['/diagnostic-measures', '/diagnostic-measures/msr_hgb', '/notifications/ntf_queue_1']) {
      const get = await fetch(`${s.url}${path}`, { method: 'GET', headers: { authorization: 'Bearer other-token' } });
      const head = await fetch(`${s.url}${path}`, { method: 'HEAD', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(head.status, path).toBe(200);
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(await head.text()).toBe('');
    }
    const n = (await s.call('GET', '/notifications')).body.find((x: { id: string }) => x.id === 'ntf_queue_1');
    expect(n.seenBy).not.toContain('acc_tester');
    const missing = await fetch(`${s.url}/diagnostic-measures/nope`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(missing.status).toBe(404);
  });
});

describe('a long list', () => {
  it('is written as produced: the first records come at once, and a write meanwhile tears nothing', async () => {
    const dir = await tempDir('clinadmin-list-');
    const dataFile = join(dir, 'data.json');
    const records = Array.from({ length: 20_000 }, (_, i) => ({
      id: `m${i}`,
      createdAt: 1_790_000_000_000,
      createdBy: 'acc_tester',
      test: `t${i}`,
      name: `Measure ${i}`,
      description: 'x'.repeat(200),
    }));
    await writeFile(dataFile, JSON.stringify({ formatVersion: 2, diagnosticMeasures: records }));
    const s = await testServer({ dataFile });
    const res = await fetch(`${s.url}/diagnostic-measures`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const reader = res.body!.getReader();
    const first = await reader.read();
    // Over 5 MB in all; the first piece is a slice of it, and the rest waits for this reader.
    expect(first.value!.length).toBeLessThan(1_000_000);
    expect(Buffer.from(first.value!).toString().startsWith('[{"id":"m0",')).toBe(true);
    const changed = await s.call('PATCH', '/diagnostic-measures/m19999', { name: 'Renamed' });
    expect(changed.status).toBe(200);
    const pieces = [Buffer.from(first.value!)];
    for (let r = await reader.read(); !r.done; r = await reader.read()) pieces.push(Buffer.from(r.value));
    const list = JSON.parse(Buffer.concat(pieces).toString());
    expect(list).toHaveLength(20_000);
    // The answer is the list as it stood when it was asked for.
    expect(list[19_999].name).toBe('Measure 19999');
    expect((await s.call('GET', '/diagnostic-measures/m19999')).body.name).toBe('Renamed');
  });
});
