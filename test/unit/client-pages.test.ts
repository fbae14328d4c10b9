// Covers: src/api/client.ts src/api/links.ts
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { nextPage } from '../../src/api/links.js';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function answering(handler: (req: IncomingMessage, res: ServerResponse, base: string) => void) {
  let base = '';
  const server = createServer((q, r) => handler(q, r, base));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return base;
}

const send = (r: ServerResponse, body: unknown, link?: string) =>
  r.writeHead(200, { 'content-type': 'application/json', ...(link ? { link } : {}) }).end(JSON.stringify(body));

describe('lists in pages (RFC 8288 Link: rel="next")', () => {
  it('follows next links, relative or absolute, arrays or wrappers, and reads the pages as one list', async () => {
    const seen: string[] = [];
    const url = await answering((q, r, base) => {
      seen.push(q.url!);
      if (q.url === '/api/items') return send(r, [{ id: 1 }, { id: 2 }], '</api/items?page=2>; rel="next"');
      if (q.url === '/api/items?page=2')
        return send(r, { items: [{ id: 3 }] }, `<${base}/api/items?page=3>; rel="next", </api/items>; rel="first"`);
      send(r, { data: [{ id: 4 }] }, '</api/items>; rel="first prev"');
    });
    const c = new ApiClient({ baseUrl: `${url}/api`, token: 't', timeoutMs: 5000 });
    expect(await c.list('/items')).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
    expect(seen).toEqual(['/api/items', '/api/items?page=2', '/api/items?page=3']);
    await c.close();
  });

  it('a sink that has what it came for (show --peek) stops at the page that holds it', async () => {
    const seen: string[] = [];
    const url = await answering((q, r) => {
      seen.push(q.url!);
      if (q.url === '/items') return send(r, [{ id: 'a' }], '</items?page=2>; rel="next"');
      if (q.url === '/items?page=2') return send(r, [{ id: 'b' }, { id: 'c' }], '</items?page=3>; rel="next"');
      send(r, [{ id: 'd' }]);
    });
    const c = new ApiClient({ baseUrl: url, token: 't', timeoutMs: 5000 });
    let found = false;
    const sink = {
      record: (rec: unknown) => {
        if ((rec as { id: string }).id === 'b') found = true;
      },
      batchEnd: () => true,
      drained: async () => undefined,
      done: () => found,
    };
    await c.stream('/items', sink);
    expect(seen).toEqual(['/items', '/items?page=2']);
    await c.close();
  });

  it('says the list written is incomplete when a later page fails, naming the records written before it', async () => {
    const url = await answering((q, r) => {
      if (q.url === '/api/items') return send(r, [{ id: 1 }, { id: 2 }], '</api/items?page=2>; rel="next"');
      // The second page's connection breaks, however often it is asked for.
      q.socket.destroy();
    });
    const c = new ApiClient({ baseUrl: `${url}/api`, token: 't', timeoutMs: 5000, sleep: async () => undefined });
    const got: unknown[] = [];
    const sink = { record: (rec: unknown) => void got.push(rec), batchEnd: () => true, drained: async () => undefined };
    await expect(c.stream('/items', sink)).rejects.toThrow(
      `the connection to ${url}/api broke after 2 records of the list; what was written is incomplete`,
    );
    expect(got).toEqual([{ id: 1 }, { id: 2 }]);
    await c.close();
  });

  it('refuses a next link to another origin, and links that go round in a circle', async () => {
    const other = await answering((_q, r) => send(r, [{ id: 1 }], '<http://example.invalid/items?page=2>; rel=next'));
    const c = new ApiClient({ baseUrl: other, token: 't', timeoutMs: 5000 });
    await expect(c.list('/items')).rejects.toThrow(
      "the API's next page of GET /items is on another origin (http://example.invalid); it was not followed, " +
        'so the list is incomplete',
    );
    await c.close();
    const circle = await answering((q, r) =>
      send(r, [{ id: q.url }], q.url === '/items' ? '</items?p=2>; rel="next"' : '</items>; rel="next"'),
    );
    const d = new ApiClient({ baseUrl: circle, token: 't', timeoutMs: 5000 });
    await expect(d.list('/items')).rejects.toThrow("the API's next-page links for GET /items go round in a circle");
    await d.close();
  });
});

describe('input a backtracking matcher would take quadratic time on (issue 38: linear matchers)', () => {
  // Each took a minute or more on main; one pass takes milliseconds: 5 s is a bound for a hang, not a target.
  it('a base URL of many slashes before its last segment, and trailing slashes', async () => {
    const started = performance.now();
    const slashes = '/'.repeat(200_000);
    const c = new ApiClient({ baseUrl: `http://127.0.0.1:1${slashes}x`, token: 't', timeoutMs: 5000 });
    expect(c.baseUrl).toBe(`http://127.0.0.1:1${slashes}x`);
    await c.close();
    const d = new ApiClient({ baseUrl: `http://127.0.0.1:1/api${slashes}`, token: 't', timeoutMs: 5000 });
    expect(d.baseUrl).toBe('http://127.0.0.1:1/api');
    await d.close();
    expect(performance.now() - started).toBeLessThan(5000);
  }, 120_000);

  it('a Link header of many `,<` before its next link', () => {
    const started = performance.now();
    // No `>` after them: each `<` read the rest of the header again.
    const last = `</items?page=9>; rel="last", ${',<'.repeat(100_000)}`;
    expect(nextPage(last, 'http://h', '/items', '/items')).toBeUndefined();
    // A `<` is no part of a URL: the next link after them is found.
    const link = `${',<'.repeat(100_000)}, </items?page=2>; rel="next"`;
    expect(nextPage(link, 'http://h', '/items', '/items')).toBe('/items?page=2');
    expect(performance.now() - started).toBeLessThan(5000);
  }, 120_000);
});

describe('a bound on the pages of one list (issue 38)', () => {
  it('gives up after 100 empty pages in a row, naming the Link header (before: followed every one)', async () => {
    const seen: string[] = [];
    const url = await answering((q, r) => {
      seen.push(q.url!);
      const n = Number(new URL(q.url!, 'http://x').searchParams.get('p') ?? '0');
      send(r, [], n < 1000 ? `</items?p=${n + 1}&pad=${'x'.repeat(2000)}>; rel="next"` : undefined);
    });
    const c = new ApiClient({ baseUrl: url, token: 't', timeoutMs: 5000 });
    await expect(c.list('/items')).rejects.toThrow(
      "the API's Link header for GET /items named 100 next pages in a row with no records; no more were followed, " +
        'so the list may be incomplete',
    );
    expect(seen).toHaveLength(100);
    await c.close();
  });

  it('reads a list of 100,000 records in 1,000 pages of 100, with a run of 99 empty pages among them', async () => {
    const url = await answering((q, r) => {
      const n = Number(new URL(q.url!, 'http://x').searchParams.get('p') ?? '1');
      const empty = n >= 500 && n < 599;
      const records = empty ? [] : Array.from({ length: 100 }, (_, k) => ({ id: n * 100 + k }));
      send(r, records, n < 1099 ? `</items?p=${n + 1}>; rel="next"` : undefined);
    });
    const c = new ApiClient({ baseUrl: url, token: 't', timeoutMs: 30_000 });
    const all = await c.list<{ id: number }>('/items');
    expect(all).toHaveLength(100_000);
    expect(new Set(all.map((x) => x.id)).size).toBe(100_000);
    await c.close();
  }, 120_000);
});
