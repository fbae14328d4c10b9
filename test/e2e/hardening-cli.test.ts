// Covers: src/api/client.ts src/api/failure.ts src/api/redact.ts src/config/update.ts
import { readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, clinadmin, serveProcess } from '../helpers/bin.js';
import { runShippedAsProcess } from '../helpers/run-shipped.js';
import { tempDir } from '../helpers/tmp.js';

const TOKEN = 'hardening-secret-token-42';
const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

async function fake(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: { url?: string; auth?: string }[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url, auth: req.headers.authorization });
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

// The CLI as it ships, in this process: these check what it says of a misbehaving server, not its process.
const cli = async (url: string, args: string[], extra: Record<string, string> = {}) =>
  runShippedAsProcess(args, {
    env: { CLINADMIN_BASE_URL: url, CLINADMIN_TOKEN: TOKEN, CLINADMIN_CONFIG_DIR: await tempDir(), ...extra },
  });

describe('the CLI against a server that misbehaves', () => {
  const cases: [string, (req: IncomingMessage, res: ServerResponse) => void, RegExp, number][] = [
    [
      'HTML',
      (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<html>Sign in</html>'),
      /^error: the API answered GET \/diagnostic-measures with a body that is not JSON \(text\/html\)\nhint: /,
      1,
    ],
    [
      'an empty body',
      (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end(),
      /^error: the API answered GET \/diagnostic-measures with an empty body$/,
      1,
    ],
    [
      'a truncated body',
      (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('[{"id": "msr_'),
      /^error: the API answered GET \/diagnostic-measures with a truncated or malformed JSON body\nhint: /,
      1,
    ],
    [
      'a 500 with a short text body',
      (_q, r) => r.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error'),
      /^error: the API failed on GET \/diagnostic-measures \(500\): Internal Server Error$/,
      1,
    ],
    [
      'a 502 with a web page',
      (_q, r) => r.writeHead(502, { 'content-type': 'text/html' }).end('<html><h1>Bad Gateway</h1></html>'),
      /^error: the API failed with HTTP 502 and no problem details$/,
      1,
    ],
    [
      'a 401 problem',
      (_q, r) =>
        r.writeHead(401, { 'content-type': 'application/problem+json' }).end('{"title":"Unauthorized","status":401}'),
      /^error: the API refused the token \(401\): Unauthorized \(the token came from env CLINADMIN_TOKEN\)\nhint: /,
      4,
    ],
  ];
  for (const [what, handler, message, code] of cases) {
    it(`ends ${what} in one sentence and exit ${code}`, async () => {
      const s = await fake(handler);
      const r = await cli(s.url, ['measures', 'list']);
      expect(r.exitCode).toBe(code);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe('');
    });
  }

  it('gives up on a server that never answers after --timeout', async () => {
    const s = await fake(() => undefined);
    const started = Date.now();
    const r = await cli(s.url, ['measures', 'show', 'x', '--timeout', '1']);
    expect(r.exitCode).toBe(1);
    // --timeout is the command's deadline, and the error names it (issue 38).
    expect(r.stderr).toMatch(/^error: the command did not finish within --timeout 1 s\nhint: /);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('says so in one sentence when the connection is refused', async () => {
    const r = await cli('http://127.0.0.1:9', ['coverages', 'list']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('error: cannot connect to the API at http://127.0.0.1:9: connection refused');
  });

  it('retries a GET through 503s but never follows a redirect to another host with the token', async () => {
    let calls = 0;
    const flaky = await fake((_q, r) => {
      calls++;
      if (calls < 3)
        r.writeHead(503, { 'retry-after': '0', 'content-type': 'application/problem+json' }).end(
          '{"title":"busy","status":503}',
        );
      else r.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    expect((await cli(flaky.url, ['coverages', 'list'])).exitCode).toBe(0);
    expect(calls).toBe(3);
    const elsewhere = await fake((_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
    const redirect = await fake((_q, r) =>
      r.writeHead(302, { location: `${elsewhere.url}/diagnostic-measures` }).end(),
    );
    const r = await cli(redirect.url, ['measures', 'list']);
    expect(r.exitCode).toBe(1);
    expect(elsewhere.seen).toEqual([]);
    expect(redirect.seen[0].auth).toBe(`Bearer ${TOKEN}`);
  });
});

describe('secrets', () => {
  it('keeps the config file owner-only whatever the umask, and two logins at once leave a valid file', async () => {
    const dir = await tempDir();
    const s = await serveProcess(['--data', join(dir, 'd.json'), '--token', TOKEN]);
    const config = join(dir, 'config');
    const login = (profile: string) =>
      execa('sh', ['-c', `umask 000; node ${BIN} login --profile ${profile} --base-url ${s.url} --token-stdin`], {
        env: { ...process.env, CLINADMIN_CONFIG_DIR: config },
        input: TOKEN,
        reject: false,
      });
    const [a, b] = await Promise.all([login('one'), login('two')]);
    expect(a.exitCode).toBe(0);
    expect(b.exitCode).toBe(0);
    expect((await stat(join(config, 'config.json'))).mode & 0o777).toBe(0o600);
    const data = JSON.parse(await readFile(join(config, 'config.json'), 'utf8'));
    // Under the config lock neither login loses the other's profile.
    expect(Object.keys(data.profiles).sort()).toEqual(['one', 'two']);
    s.proc.kill('SIGTERM');
    await s.proc;
  });

  it('never writes the token to any output or report, whatever goes wrong', async () => {
    const dir = await tempDir();
    const s = await serveProcess(['--seed', '--data', join(dir, 'd.json'), '--token', TOKEN, '--max-body', '2000']);
    const env = { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN, CLINADMIN_CONFIG_DIR: join(dir, 'c') };
    await writeFile(
      join(dir, 'in.json'),
      JSON.stringify([
        { test: 't', name: 'ok' },
        { test: 't', name: 'too big', description: 'x'.repeat(3000) },
      ]),
    );
    const runs = await Promise.all([
      clinadmin(['measures', 'import', 'in.json', '-v', '--report', 'report.json'], { env, cwd: dir }),
      clinadmin(['api', 'GET', `/diagnostic-measures/${TOKEN}`, '-v'], { env }),
      clinadmin(['whoami', '-v', '-o', 'yaml'], { env }),
      clinadmin(['measures', 'list', '-v'], { env: { ...env, CLINADMIN_BASE_URL: 'http://127.0.0.1:9' } }),
      clinadmin(['notifications', 'watch', '--interval', '5'], { env: { ...env, CLINADMIN_TOKEN: `${TOKEN}x` } }),
    ]);
    for (const r of runs) {
      expect(`${r.stdout}${r.stderr}`.includes(TOKEN), r.command).toBe(false);
    }
    expect(await readFile(join(dir, 'report.json'), 'utf8')).not.toContain(TOKEN);
    s.proc.kill('SIGTERM');
    await s.proc;
  });
});
