// Covers: src/api/client.ts src/api/transport.ts src/deadline.ts
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { Clock, type Deadline } from '../../src/deadline.js';
import { DeadlineError } from '../../src/errors.js';

// The clock is performance.now, faked alone: sockets and their timers stay real, and each wait the client
// asks for moves the clock by that much at once.
afterEach(() => {
  vi.useRealTimers();
});

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** Each request gets 503 with Retry-After 20 the first time its path is asked for, then 200. */
async function busyOnce() {
  const seen: string[] = [];
  const asked = new Set<string>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url}`);
    const first = !asked.has(req.url ?? '');
    asked.add(req.url ?? '');
    if (first) return void res.writeHead(503, { 'retry-after': '20' }).end('{"title":"busy"}');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function client(url: string, deadline?: Deadline) {
  const sleeps: number[] = [];
  const c = new ApiClient({
    baseUrl: url,
    token: 't',
    timeoutMs: 30_000,
    deadline,
    sleep: async (ms) => {
      sleeps.push(ms);
      vi.advanceTimersByTime(ms);
    },
  });
  return { c, sleeps };
}

describe('the deadline of an exchange and of a command', () => {
  it('without --timeout gives each exchange its own 30 s: two waits of 20 s in one command', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const s = await busyOnce();
    const { c, sleeps } = client(s.url);
    expect(await c.request('GET', '/a')).toEqual({ ok: true });
    expect(await c.request('GET', '/b')).toEqual({ ok: true });
    expect(sleeps).toEqual([20_000, 20_000]);
    await c.close();
  });

  it('with --timeout 30 bounds the command: the second wait of 20 s lands past it and ends it at once', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const s = await busyOnce();
    const { c, sleeps } = client(s.url, new Clock().deadline({ ms: 30_000, from: performance.now() }));
    expect(await c.request('GET', '/a')).toEqual({ ok: true });
    await expect(c.request('GET', '/b')).rejects.toThrow(
      'the API answered GET /b with 503 and asked to wait 20 s (Retry-After), past the --timeout of 30 s; ' +
        'it was not sent again',
    );
    expect(sleeps).toEqual([20_000]);
    expect(s.seen).toEqual(['GET /a', 'GET /a', 'GET /b']);
    await c.close();
  });

  it('past the deadline begins no exchange: it fails at once, naming --timeout', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const s = await busyOnce();
    const { c } = client(s.url, new Clock().deadline({ ms: 5_000, from: performance.now() }));
    vi.advanceTimersByTime(5_001);
    const err = await c.request('POST', '/x', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeadlineError);
    expect((err as DeadlineError).message).toBe('the command did not finish within --timeout 5 s');
    expect((err as DeadlineError).inFlight).toBe(false);
    expect(s.seen).toEqual([]);
    await c.close();
  });

  it('does not count the time a person spends at a prompt', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const s = await busyOnce();
    const clock = new Clock();
    const deadline = clock.deadline({ ms: 50_000, from: performance.now() })!;
    const { c, sleeps } = client(s.url, deadline);
    expect(await c.request('GET', '/a')).toEqual({ ok: true });
    // A person reads a diff for ten minutes, then says yes: 30 s of the 50 are still left.
    await clock.untimed(async () => vi.advanceTimersByTime(600_000));
    expect(Math.round(deadline.left() / 1000)).toBe(30);
    expect(await c.request('GET', '/b')).toEqual({ ok: true });
    expect(sleeps).toEqual([20_000, 20_000]);
    await c.close();
  });
});

describe('a request the deadline passes before it is sent', () => {
  it('is never sent: one waiting for a connection (a held pool, a TLS handshake) ends at the deadline', async () => {
    // The server holds every request; the pool's one connection is taken by the first, so the second waits.
    const seen: string[] = [];
    const server = createServer((req: IncomingMessage) => void seen.push(`${req.method} ${req.url}`));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const c = new ApiClient({
      baseUrl: url,
      timeoutMs: 20_000,
      deadline: new Clock().deadline({ ms: 300, from: performance.now() }),
      connections: 1,
    });
    const first = c.request('GET', '/a').catch((e: unknown) => e);
    const second = c.request('POST', '/b', {}).catch((e: unknown) => e);
    expect(await second).toBeInstanceOf(DeadlineError);
    expect(await first).toBeInstanceOf(DeadlineError);
    // Closing waits for nothing left in the pool, and the server saw the first request alone.
    await c.close();
    expect(seen).toEqual(['GET /a']);
    server.closeAllConnections();
  });
});
