// Covers: src/api/redact.ts src/api/links.ts
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clinadmin } from '../helpers/bin.js';
import { hostileServer } from '../helpers/hostile.js';

// Issue 38, findings 5 and 10, through the built binary against servers we do not control (finding 7, the
// deadline, is hostile-deadline.test.ts).

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
