// Covers: src/deadline.ts src/context.ts
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli.js';
import { runCli } from '../helpers/run-cli.js';
import { tempDirSync } from '../helpers/tmp.js';

// Each run has its own clock (ctx.clock): the time a person spends at one run's prompt is not taken off
// another run's --timeout, though both run in one process. performance.now is faked alone, so sockets and
// timers stay real and the test moves the clock where a person would think or a server would be slow.

afterEach(() => {
  vi.useRealTimers();
});

/** A list in two pages; the first takes 6 s of the (fake) clock, as a slow server would. */
async function slowPages() {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url === '/diagnostic-measures') {
      vi.advanceTimersByTime(6_000);
      res.setHeader('link', '</diagnostic-measures?page=2>; rel="next"');
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(`[{"id":"msr_${seen.length}"}]`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

describe('two runs in one process', () => {
  it("keep their own prompt time: one run's open prompt does not stop another's --timeout", async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const s = await slowPages();
    // Run A waits at a prompt (login's base URL) at a pretend terminal.
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
    const stderr = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
    let screen = '';
    const asked = new Promise<void>((resolve) =>
      stderr.on('data', (d: Buffer) => {
        screen += d.toString();
        if (screen.includes('API base URL')) resolve();
      }),
    );
    const a = run(['login'], {
      stdin,
      stdout: new PassThrough(),
      stderr,
      env: { NO_COLOR: '1', CLINADMIN_CONFIG_DIR: tempDirSync('clinadmin-config-') },
      cwd: process.cwd(),
      isInteractive: true,
    });
    await asked;
    // Its person thinks for ten minutes, and meanwhile run B lists with --timeout 5: its first page takes
    // 6 s, so its deadline has passed and the second page is never asked for.
    vi.advanceTimersByTime(600_000);
    const b = await runCli(['--timeout', '5', 'measures', 'list', '-o', 'json'], {
      env: { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: 't' },
    });
    expect(b.stderr).toContain('error: the command did not finish within --timeout 5 s');
    expect(b.code).toBe(1);
    expect(s.seen).toEqual(['/diagnostic-measures']);
    // Run A's person gives up (Ctrl-D): cancelled, nothing stored.
    stdin.end();
    expect(await a).toBe(130);
    s.server.close();
  });
});
