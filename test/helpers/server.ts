import { join } from 'node:path';
import { type RunningServer, startServer } from '../../src/server/start.js';
import { afterEveryTest, ORDER } from './cleanup.js';
import { runCli } from './run-cli.js';
import { tempDir } from './tmp.js';

export const TOKEN = 'test-token-0123456789';
export const ACCOUNT = 'acc_tester';

const running: RunningServer[] = [];

export interface TestServer extends RunningServer {
  dataFile: string;
  dir: string;
  /** fetch against the server with the test token unless headers say otherwise. */
  call: (
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
    // biome-ignore lint/suspicious/noExplicitAny: tests read answers of every shape and assert on them.
  ) => Promise<{ status: number; headers: Headers; body: any }>;
}

/** What the CLI needs to talk to a test server at `url` as the test account, its config in `dir`. */
export function cliEnv(url: string, dir: string): Record<string, string> {
  return { CLINADMIN_BASE_URL: url, CLINADMIN_TOKEN: TOKEN, CLINADMIN_CONFIG_DIR: join(dir, 'config') };
}

/** The real server on 127.0.0.1 and port 0, over a temporary data file. */
export async function testServer(
  options: { seed?: boolean; events?: boolean; maxBody?: number; dataFile?: string } = {},
): Promise<TestServer> {
  const dir = await tempDir();
  const dataFile = options.dataFile ?? join(dir, 'data.json');
  const warnings: string[] = [];
  const server = await startServer({
    dataFile,
    host: '127.0.0.1',
    port: 0,
    tokens: [
      { token: TOKEN, account: ACCOUNT },
      { token: 'other-token', account: 'acc_other' },
    ],
    events: options.events ?? true,
    seed: options.seed ?? false,
    maxBody: options.maxBody ?? 1024 * 1024,
    warn: (m) => warnings.push(m),
  });
  running.push(server);
  const call: TestServer['call'] = async (method, path, body, headers = {}) => {
    const res = await fetch(server.url + path, {
      method,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
  };
  const stop = server.close;
  return Object.assign(server, {
    dataFile,
    dir,
    call,
    close: async () => {
      const i = running.indexOf(server);
      if (i >= 0) running.splice(i, 1);
      await stop();
    },
  });
}

afterEveryTest(ORDER.testServers, async () => {
  while (running.length > 0) await running.pop()!.close();
});

/** A test server, and the CLI (in process) pointed at it from a folder of its own. */
export async function cliOnServer(options: Parameters<typeof testServer>[0] = {}) {
  const s = await testServer(options);
  const dir = await tempDir();
  const env = cliEnv(s.url, dir);
  return { s, dir, cli: (args: string[]) => runCli(args, { env, cwd: dir }) };
}
