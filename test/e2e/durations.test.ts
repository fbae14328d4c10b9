// Covers: src/commands/notifications/watch-run.ts src/output/warnings.ts src/commands/options.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clinadmin } from '../helpers/bin.js';
import { hostileServer } from '../helpers/hostile.js';
import { tempDir } from '../helpers/tmp.js';

// A timer keeps at most 2^31-1 ms (about 24.8 days; Node's documented limit for setTimeout): a longer
// delay fires after 1 ms, and Node prints a TimeoutOverflowWarning raw on stderr. Every duration flag is
// held to that range, with an error naming the flag; a warning Node gives reaches stderr escaped.

/** A notifications list that is empty, for as many polls as come. */
const emptyList = () =>
  hostileServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[]');
  });

describe('every duration is bounded', () => {
  it.each([
    ['notifications', 'watch'],
    ['notifications', 'browse'],
  ])('%s %s --interval 3000000 is refused by name, before any request', async (...cmd) => {
    const api = await emptyList();
    const r = await clinadmin([...cmd, '--interval', '3000000'], {
      env: { CLINADMIN_BASE_URL: api.url, CLINADMIN_TOKEN: 't' },
    });
    expect({ exitCode: r.exitCode, requests: api.seen.length }).toEqual({ exitCode: 2, requests: 0 });
    expect(r.stderr.split('\n')[0]).toBe(
      'error: invalid option --interval: must be a positive number of seconds, at most 2147483 (24 days) ' +
        '(got "3000000")',
    );
    expect(r.stderr).not.toContain('Warning');
  });

  it('polls once at the longest --interval, not every millisecond, and says nothing of timers', async () => {
    const api = await emptyList();
    const watch = clinadmin(['notifications', 'watch', '--interval', '2147483'], {
      env: { CLINADMIN_BASE_URL: api.url, CLINADMIN_TOKEN: 't' },
    });
    // The first poll is the readiness: then a window of one second, in which a timer that overflowed
    // (1 ms) would poll hundreds of times; a busy machine only makes fewer.
    while (api.seen.length === 0) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 1000));
    const polls = api.seen.length;
    watch.kill('SIGINT');
    const r = await watch;
    expect(polls).toBe(1);
    expect(r.stderr).not.toContain('TimeoutOverflowWarning');
  });

  it.each([
    ['--timeout', ['--timeout', '2147484', 'measures', 'list'], 'a positive number of seconds, at most 2147483'],
    ['--headers-timeout', ['serve', '--headers-timeout', '2147483648'], 'a whole number from 100 to 2147483647'],
    ['--request-timeout', ['serve', '--request-timeout', '2147483648'], 'a whole number from 100 to 2147483647'],
  ])('%s past the longest timer is refused, naming the flag and its range', async (flag, args, range) => {
    const r = await clinadmin(args, { env: { CLINADMIN_BASE_URL: 'http://127.0.0.1:9', CLINADMIN_TOKEN: 't' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(new RegExp(`^error: invalid option ${flag}: must be ${range}`));
  });

  it("writes a warning Node gives through the one writer: escaped, on one line, never Node's raw print", async () => {
    const dir = await tempDir();
    // A warning whose text holds an OSC title sequence and a newline, given while the command runs.
    const preload = join(dir, 'warn.cjs');
    await writeFile(
      preload,
      "setImmediate(() => process.emitWarning('\\u001b]0;pwned\\u0007 and\\nmore', 'HostileWarning'));\n",
    );
    const r = await clinadmin(['api', 'GET', '/healthz'], {
      env: { CLINADMIN_BASE_URL: 'http://127.0.0.1:9', CLINADMIN_TOKEN: 't', NODE_OPTIONS: `--require ${preload}` },
    });
    expect(r.stderr).not.toContain('\u001b');
    expect(r.stderr).not.toContain('(node:');
    expect(r.stderr.split('\n')).toContain('warning: HostileWarning: \\u001b]0;pwned\\u0007 and more');
  });
});
