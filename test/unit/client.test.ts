// Covers: src/api/client.ts src/api/transport.ts src/api/retry.ts
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ApiError, AuthError, NotFoundError } from '../../src/errors.js';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A scripted server: each request gets the next answer. */
async function scripted(answers: ((req: IncomingMessage, res: ServerResponse) => void)[]) {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
    (answers.shift() ?? ((_q, r) => r.writeHead(500).end()))(req, res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (_q: IncomingMessage, r: ServerResponse) =>
    r.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

function client(url: string, trace?: string[], timeoutMs = 5000) {
  const sleeps: number[] = [];
  const c = new ApiClient({
    baseUrl: url,
    token: 'secret-token-123456',
    timeoutMs,
    trace: trace ? (l) => trace.push(l) : undefined,
    sleep: async (ms) => void sleeps.push(ms),
  });
  return { c, sleeps };
}

/** A peer that sends `prefix`, then one byte every 100 ms for as long as the connection is open. */
const dripAfter = (prefix: string) => (_q: IncomingMessage, r: ServerResponse) => {
  r.writeHead(200, { 'content-type': 'application/json' });
  r.write(prefix);
  const timer = setInterval(() => r.write('a'), 100);
  r.on('close', () => clearInterval(timer));
};

describe('ApiClient', () => {
  it('sends the bearer token and parses JSON', async () => {
    const s = await scripted([json(200, [{ id: 'a' }])]);
    const { c } = client(s.url);
    expect(await c.request('GET', '/diagnostic-measures')).toEqual([{ id: 'a' }]);
    expect(s.seen).toEqual(['GET /diagnostic-measures Bearer secret-token-123456']);
    await c.close();
  });

  it('reads a body that arrives in pieces, with a character split between two of them', async () => {
    const body = Buffer.from(JSON.stringify([{ id: 'a', name: 'Kalium (Säuglinge) – 血清' }]));
    const cut = body.indexOf(Buffer.from('ä')) + 1; // inside the two bytes of ä
    const s = await scripted([
      (_q, r) => {
        r.writeHead(200, { 'content-type': 'application/json' });
        r.write(body.subarray(0, cut));
        setTimeout(() => r.end(body.subarray(cut)), 50);
      },
    ]);
    const { c } = client(s.url);
    expect(await c.request('GET', '/diagnostic-measures')).toEqual([{ id: 'a', name: 'Kalium (Säuglinge) – 血清' }]);
    await c.close();
  });

  it('retries a GET on 503, honouring Retry-After', async () => {
    const s = await scripted([
      json(503, { title: 'busy' }, { 'retry-after': '2' }),
      json(429, {}),
      json(200, { ok: true }),
    ]);
    const { c, sleeps } = client(s.url);
    expect(await c.request('GET', '/x')).toEqual({ ok: true });
    expect(s.seen).toHaveLength(3);
    expect(sleeps[0]).toBe(2000);
    await c.close();
  });

  it('sends a POST again after 429, which the server refused unprocessed, honouring Retry-After', async () => {
    const s = await scripted([json(429, { title: 'slow down' }, { 'retry-after': '1' }), json(200, { id: 'once' })]);
    const { c, sleeps } = client(s.url);
    expect(await c.request('POST', '/x', { a: 1 })).toEqual({ id: 'once' });
    expect(s.seen).toHaveLength(2);
    expect(sleeps).toEqual([1000]);
    await c.close();
  });

  it('does not retry a POST that reached the server', async () => {
    const s = await scripted([json(503, { detail: 'disk full' }), json(200, { id: 'dup' })]);
    const { c } = client(s.url);
    await expect(c.request('POST', '/x', { a: 1 })).rejects.toThrow(/failed on POST \/x \(503\): disk full/);
    expect(s.seen).toHaveLength(1);
    await c.close();
  });

  it('does not send a PATCH again once it may have been applied (RFC 5789 §2: PATCH is not idempotent)', async () => {
    // A 502 may come after the record was changed; the PATCH is not repeated, as a POST is not.
    const s = await scripted([json(502, { detail: 'bad gateway' }), json(200, { id: 'a' })]);
    const { c } = client(s.url);
    await expect(c.request('PATCH', '/x/a', { unit: 'g' })).rejects.toThrow(/failed on PATCH \/x\/a \(502\)/);
    expect(s.seen).toHaveLength(1);
    // Refused unprocessed (429 with Retry-After), it is sent again, as any request is.
    const t = await scripted([json(429, { detail: 'slow down' }, { 'retry-after': '0' }), json(200, { id: 'a' })]);
    const { c: d } = client(t.url);
    expect(await d.request('PATCH', '/x/a', { unit: 'g' })).toEqual({ id: 'a' });
    expect(t.seen).toHaveLength(2);
    await c.close();
    await d.close();
  });

  it('sends a POST again after a 503 that carries Retry-After (refused unprocessed), with patience', async () => {
    const busy = json(503, { detail: 'injected; nothing was changed' }, { 'retry-after': '1' });
    const s = await scripted([busy, busy, busy, busy, busy, json(200, { id: 'once' })]);
    const { c, sleeps } = client(s.url);
    // Five refusals in a row: more than the three retries of a network error, as a shedding server needs.
    expect(await c.request('POST', '/x', { a: 1 })).toEqual({ id: 'once' });
    expect(s.seen).toHaveLength(6);
    expect(sleeps).toEqual([1000, 1000, 1000, 1000, 1000]);
    await c.close();
  });

  it('gives up on refusals after ten retries and names the last answer', async () => {
    const busy = json(429, { detail: 'slow down' }, { 'retry-after': '0' });
    const s = await scripted(Array.from({ length: 12 }, () => busy));
    const { c } = client(s.url);
    await expect(c.request('POST', '/x', { a: 1 })).rejects.toThrow(/slow down/);
    expect(s.seen).toHaveLength(11);
    await c.close();
  });

  it('turns problem+json into typed errors with field details', async () => {
    const s = await scripted([
      json(400, {
        title: 'Invalid',
        detail: 'the body is invalid',
        errors: [{ path: 'referenceRanges[1].max', message: 'too small' }],
      }),
      json(401, { detail: 'no' }),
      json(404, { detail: 'no measure with id x' }),
    ]);
    const { c } = client(s.url);
    const bad = await c.request('POST', '/x', {}).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ApiError);
    expect((bad as ApiError).details).toEqual(['referenceRanges[1].max: too small']);
    expect((bad as ApiError).exitCode).toBe(1);
    await expect(c.request('GET', '/x')).rejects.toBeInstanceOf(AuthError);
    await expect(c.request('GET', '/x')).rejects.toBeInstanceOf(NotFoundError);
    await c.close();
  });

  it('says so when the body is HTML, empty or truncated', async () => {
    const s = await scripted([
      (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>'),
      (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end(''),
      (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('[{"id":'),
      (_q, r) => r.writeHead(500, { 'content-type': 'text/plain' }).end('oops'),
    ]);
    const { c } = client(s.url);
    await expect(c.request('POST', '/x', {})).rejects.toThrow(
      'the API answered POST /x with a body that is not JSON (text/html)',
    );
    await expect(c.request('POST', '/x', {})).rejects.toThrow('with an empty body');
    await expect(c.request('POST', '/x', {})).rejects.toThrow('with a truncated or malformed JSON body');
    // A short text answer is the server's own sentence, shown with the status.
    await expect(c.request('POST', '/x', {})).rejects.toThrow('the API failed on POST /x (500): oops');
    await c.close();
  });

  it('gives up after the timeout with one sentence', async () => {
    const s = await scripted([() => undefined]);
    const { c } = client(s.url, undefined, 300);
    await expect(c.request('POST', '/slow', {})).rejects.toThrow(/did not answer within 0\.3 s/);
    await c.close();
  });

  it('holds a whole exchange to the deadline, even when a peer sends a byte at a time', async () => {
    const s = await scripted([dripAfter('{"id":"')]);
    const { c } = client(s.url, undefined, 500);
    const started = Date.now();
    await expect(c.request('GET', '/diagnostic-measures/x')).rejects.toThrow(/did not answer within 0\.5 s/);
    expect(Date.now() - started).toBeLessThan(3000);
    await c.close();
  });

  it('lets a list take longer than the deadline while its bytes keep coming', async () => {
    const items = Array.from({ length: 6 }, (_, i) => JSON.stringify({ id: `m${i}` }));
    const slowList = (_q: IncomingMessage, r: ServerResponse) => {
      r.writeHead(200, { 'content-type': 'application/json' });
      r.write('[');
      let i = 0;
      const timer = setInterval(() => {
        if (i < items.length) r.write(`${i ? ',' : ''}${items[i++]}`);
        else {
          clearInterval(timer);
          r.end(']');
        }
      }, 150);
    };
    const s = await scripted([slowList]);
    const { c } = client(s.url, undefined, 500);
    const list = await c.list<{ id: string }>('/diagnostic-measures');
    expect(list.map((m) => m.id)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
    await c.close();
  });

  it('ends a list whose peer drips a byte at a time inside a record, after the records before it', async () => {
    const s = await scripted([dripAfter('[{"id":"m0"},{"id":"')]);
    const { c } = client(s.url, undefined, 500);
    const seen: unknown[] = [];
    const sink = {
      record: (rec: unknown) => void seen.push(rec),
      batchEnd: () => true,
      drained: async () => undefined,
    };
    await expect(c.stream('/diagnostic-measures', sink)).rejects.toThrow(
      /did not answer within 0\.5 s after 1 records of the list; what was written is incomplete/,
    );
    expect(seen).toEqual([{ id: 'm0' }]);
    await c.close();
  });

  it('hands on the records before one that is not JSON, in order, then says the list is not valid JSON', async () => {
    // One piece of the answer: the records are parsed together, and the bad one (a trailing comma) is found.
    const body = '[{"id":"m0"},{"id":"m1","n":[1,2]},{"id":"m2",},{"id":"m3"}]';
    const s = await scripted([(_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end(body)]);
    const { c } = client(s.url);
    const seen: unknown[] = [];
    const sink = {
      record: (rec: unknown) => void seen.push(rec),
      batchEnd: () => true,
      drained: async () => undefined,
    };
    await expect(c.stream('/diagnostic-measures', sink)).rejects.toThrow(/sent a list that is not valid JSON/);
    expect(seen).toEqual([{ id: 'm0' }, { id: 'm1', n: [1, 2] }]);
    await c.close();
  });

  it("passes on a fault of the list's reader as itself: not a network failure, not sent again", async () => {
    const s = await scripted([json(200, [{ id: 'm0' }, { id: 'm1' }]), json(200, [{ id: 'm0' }, { id: 'm1' }])]);
    const { c } = client(s.url);
    const fault = new TypeError('the reader broke');
    const sink = {
      record: () => {
        throw fault;
      },
      batchEnd: () => true,
      drained: async () => undefined,
    };
    await expect(c.stream('/diagnostic-measures', sink)).rejects.toBe(fault);
    expect(s.seen).toHaveLength(1);
    await c.close();
  });

  it('refuses an answer over 64 MiB for one record, without holding it', async () => {
    const huge = (_q: IncomingMessage, r: ServerResponse) => {
      r.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      let sent = 0;
      const more = () => {
        while (sent < 80 && r.write(chunk)) sent++;
        if (sent < 80) r.once('drain', more);
        else r.end();
      };
      r.write('{"id":"');
      more();
    };
    const s = await scripted([huge]);
    const { c } = client(s.url, undefined, 20_000);
    await expect(c.request('GET', '/diagnostic-measures/x')).rejects.toThrow(/larger than 64 MiB, the cap for one/);
    await c.close();
  });

  it('redacts the token from traces', async () => {
    const s = await scripted([json(200, {})]);
    const trace: string[] = [];
    const { c } = client(`${s.url}/secret-token-123456`, trace);
    await c.request('GET', '/x');
    expect(trace.join('\n')).not.toContain('secret-token-123456');
    expect(trace[0]).toMatch(
      /^→ GET http:\/\/127\.0\.0\.1:\d+\/\[redacted\]\/x \(authorization: Bearer \[redacted\]\)$/,
    );
    expect(trace[1]).toMatch(/^← 200 GET .* \(\d+ ms, 2 B\)$/);
    await c.close();
  });
});
