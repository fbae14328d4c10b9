import { request } from 'node:http';
import { join } from 'node:path';
import type { ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
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
  const run = (argv: string[], token = ADMIN) =>
    clinadmin(argv, { env: { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: token } });
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
    // Refused without a token, and journaled: the longest path serve's 16 KiB header limit admits, far past
    // the 1,000 characters that froze it when the glob became a regular expression.
    const long = `/${'a'.repeat(15_000)}`;
    expect(await raw(s.url, 'GET', long)).toBe(401);
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
