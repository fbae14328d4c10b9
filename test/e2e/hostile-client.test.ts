import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clinadmin } from '../helpers/bin.js';
import { hostileServer } from '../helpers/hostile.js';

// Issue 38, findings 5, 7 and 10, through the built binary against servers we do not control.

const TOKEN = 's3cr3t/T0ken+é';

const run = (url: string, args: string[]) =>
  clinadmin(args, { env: { CLINADMIN_BASE_URL: url, CLINADMIN_TOKEN: TOKEN } });

/** The forms a server may echo a token in, made as those servers make them. */
function echoes(authorization: string): string[] {
  const token = authorization.replace(/^Bearer /, '');
  const json = JSON.stringify(token).slice(1, -1);
  return [
    token,
    json,
    json.replace(/\//g, '\\/'),
    [...token].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    encodeURIComponent(token),
    encodeURIComponent(token).replace(/%[0-9A-F]{2}/g, (p) => p.toLowerCase()),
    `Basic ${Buffer.from(`user:${token}`).toString('base64')}`,
  ];
}

describe('a server that echoes the token, in any encoding (finding 5)', () => {
  it('never shows it in -v traces or in the error', async () => {
    const echo = (req: IncomingMessage, res: ServerResponse) => {
      const forms = echoes(req.headers.authorization ?? '');
      const body = `{"title":"bad token ${forms.join(' ; ')}","detail":"${forms.slice(1).join(' ; ')}"}`;
      res.writeHead(req.method === 'GET' ? 400 : 422, { 'content-type': 'application/problem+json' }).end(body);
    };
    const h = await hostileServer(echo);
    for (const args of [
      ['measures', 'show', 'msr_x', '-v'],
      ['measures', 'list', '-v'],
      ['measures', 'delete', 'msr_x', '--yes', '-v'],
    ]) {
      const r = await run(h.url, args);
      expect(r.exitCode).toBe(1);
      // The echo reached the trace (so redaction, not a missing trace, keeps it out).
      expect(r.stderr).toContain('body: {"title":"bad token [redacted]');
      for (const form of echoes(`Bearer ${TOKEN}`)) {
        expect(r.stderr).not.toContain(form);
        expect(r.stdout).not.toContain(form);
      }
      expect(r.stderr).not.toContain('T0ken');
    }
    expect(h.seen.every((s) => s.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });
});

describe('--timeout is a deadline for the whole exchange (finding 7)', () => {
  const busy = (status: number, after: string) => (_req: IncomingMessage, res: ServerResponse) =>
    res.writeHead(status, { 'retry-after': after, 'content-type': 'application/problem+json' }).end('{"title":"busy"}');

  it('ends at once when the server asks for a wait past it, saying how long it asked', async () => {
    for (const [status, args] of [
      [429, ['measures', 'show', 'msr_x']],
      [503, ['measures', 'show', 'msr_x']],
      [503, ['measures', 'list', '-o', 'json']],
      [429, ['coverages', 'list', '-o', 'table']],
      [503, ['measures', 'create', '--test', 't', '--name', 'n']],
    ] as const) {
      const h = await hostileServer(busy(status, '30'));
      const started = Date.now();
      const r = await run(h.url, [...args, '--timeout', '2']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`with ${status} and asked to wait 30 s (Retry-After), past the --timeout of 2 s`);
      expect(r.stderr).toContain('hint: try again later, or raise --timeout');
      // Asked once, never again (before: 11 attempts over 300 s).
      expect(h.seen).toHaveLength(1);
      // A bound for a hang, not a timing target.
      expect(Date.now() - started).toBeLessThan(10_000);
    }
  });

  it('reads a Retry-After given as an HTTP date, and one absurdly far, the same way', async () => {
    for (const [after, said] of [
      [new Date(Date.now() + 3_600_000).toUTCString(), /asked to wait 3(59\d|60\d) s/],
      ['99999999999', /asked to wait 99999999999 s/],
    ] as const) {
      const h = await hostileServer(busy(429, after));
      const r = await run(h.url, ['measures', 'show', 'msr_x', '--timeout', '2']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(said);
      expect(h.seen).toHaveLength(1);
    }
  });

  it('counts its waits: Retry-After 1 under --timeout 2 is asked at most three times', async () => {
    const h = await hostileServer(busy(503, '1'));
    const r = await run(h.url, ['measures', 'show', 'msr_x', '--timeout', '2']);
    expect(r.exitCode).toBe(1);
    expect(h.seen.length).toBeGreaterThanOrEqual(2);
    expect(h.seen.length).toBeLessThanOrEqual(3);
    expect(r.stderr).toMatch(/^error: the API (failed on GET \/diagnostic-measures\/msr_x \(503\)|answered GET)/m);
  });
});

describe('a next-page Link header that is not a URL (finding 10)', () => {
  it('is named in the error, with its value', async () => {
    const h = await hostileServer((_req, res) =>
      res
        .writeHead(200, {
          'content-type': 'application/json',
          // Node's own server refuses control bytes in a header; a port past 65535 is no URL either.
          link: '<http://[not a url>; rel="last", <http://evil.example:99999/p?a=1>; rel="next"',
        })
        .end('[{"id":"msr_1","name":"one","test":"t"}]'),
    );
    const r = await run(h.url, ['measures', 'list', '-o', 'ndjson']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(
      "error: the API's Link header for GET /diagnostic-measures names a next page that is not a URL: " +
        '<http://evil.example:99999/p?a=1>; the list is incomplete',
    );
    expect(r.stderr).not.toContain('Invalid URL');
    // What came before the bad link was written.
    expect(r.stdout).toContain('"msr_1"');
  });

  it('quotes at most 200 characters of a huge one', async () => {
    const h = await hostileServer((_req, res) =>
      res
        .writeHead(200, {
          'content-type': 'application/json',
          link: `<http://x:99999/${'a'.repeat(12_000)}>; rel=next`,
        })
        .end('[]'),
    );
    const r = await run(h.url, ['measures', 'list', '-o', 'json']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(
      'Link header for GET /diagnostic-measures names a next page that is not a URL: <http://x:99999/aaa',
    );
    expect(r.stderr.length).toBeLessThan(600);
  });
});
