// Covers: src/commands/options.ts src/commands/shared.ts src/commands/serve-run.ts src/server/http/faults.ts
import { describe, expect, it } from 'vitest';
import { parsedAs, runCli } from '../helpers/run-cli.js';

// What a command line parses to, through the seam that takes the place of a command's run (gh's runF):
// no server, no process. What the parsed options then do is tested where the behaviour is the point.

describe('what a command line parses to', () => {
  it('shows the details of a fault under --verbose as commander reads it: -vo json, not --query -v', async () => {
    const fault = () => {
      throw new Error('injected fault');
    };
    const env = { CLINADMIN_BASE_URL: 'http://127.0.0.1:9', CLINADMIN_TOKEN: 't' };
    const grouped = await runCli(['measures', 'list', '-vo', 'json'], { env, runF: fault });
    expect(grouped.stderr).toMatch(/^error: unexpected: injected fault\nError: injected fault\n {4}at /);
    // -v is the value of --query here, so not verbose: one line and the hint.
    const value = await runCli(['measures', 'list', '--query', '-v'], { env, runF: fault });
    expect(value.stderr).toBe(
      'error: unexpected: injected fault\nhint: run again with --verbose for details, and report it if it persists\n',
    );
  });

  it('gives a list its checked options and the globals: seconds as milliseconds, --fields as a list', async () => {
    const r = await parsedAs([
      '--timeout',
      '2.5',
      'measures',
      'list',
      '--fields',
      'id, name,,unit',
      '-o',
      'json',
      '--limit',
      '3',
      '--name-like',
      'Sod',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.parsed).toMatchObject({
      command: ['measures', 'list'],
      options: { timeoutMs: 2500, fields: ['id', 'name', 'unit'], output: 'json', limit: 3, nameLike: 'Sod' },
      args: [],
    });
    // --timeout given is a deadline for the whole command as well.
    expect((r.parsed?.options.deadline as { ms: number } | undefined)?.ms).toBe(2500);
    // Without it each exchange has 30 s and the command none; whatever was not given stays out.
    const plain = await parsedAs(['coverages', 'show', 'cov_1']);
    expect(plain.parsed).toEqual({
      command: ['coverages', 'show'],
      options: { timeoutMs: 30_000, color: true, pager: true },
      args: ['cov_1'],
    });
    expect(plain.parsed?.options.deadline).toBeUndefined();
  });

  it('gives import its files and its own options, and a refused value never reaches the run', async () => {
    const r = await parsedAs(['measures', 'import', 'a.json', 'b.csv', '--concurrency', '8', '--dry-run', '-v']);
    expect(r.parsed).toMatchObject({
      command: ['measures', 'import'],
      options: { concurrency: 8, dryRun: true, verbose: true },
      args: [['a.json', 'b.csv']],
    });
    expect((await parsedAs(['measures', 'import', 'a.json'])).parsed?.options).toMatchObject({ concurrency: 48 });
    const refused = await parsedAs(['measures', 'import', 'a.json', '--concurrency', '65']);
    expect(refused.code).toBe(2);
    expect(refused.parsed).toBeUndefined();
    expect(refused.stderr).toBe(
      'error: invalid option --concurrency: must be a whole number from 1 to 64 (got "65")\n',
    );
  });

  it('reads numbers as a person writes them: 2.5 and .5 are seconds, 0x10, 1e3 and Infinity are refused', async () => {
    const timeout = async (v: string) =>
      (await parsedAs(['measures', 'list', '--timeout', v])).parsed?.options.timeoutMs as number | undefined;
    expect(await timeout('2.5')).toBe(2500);
    expect(await timeout('.5')).toBe(500);
    expect(await timeout('30.')).toBe(30_000);
    for (const v of ['0x10', '0b1', '0o7', '1e3', 'Infinity', '-1', '+1', ' 1', '.', '']) {
      const r = await parsedAs(['measures', 'list', '--timeout', v]);
      expect(r.code, v).toBe(2);
      expect(r.parsed, v).toBeUndefined();
      expect(r.stderr, v).toContain('error: invalid option --timeout: must be a positive number of seconds');
    }
    const hex = await parsedAs(['measures', 'list', '--limit', '0x10']);
    expect(hex.stderr).toBe(
      'error: invalid option --limit: must be a whole number of at least 1 (got "0x10": the letter "x")\n',
    );
  });

  it('gives watch its interval in milliseconds and list its --since', async () => {
    expect((await parsedAs(['notifications', 'watch', '--interval', '0.5'])).parsed?.options).toMatchObject({
      interval: 500,
    });
    // A date alone is midnight UTC (ECMA-262's date-only form); a duration counts back from now.
    const since = await parsedAs(['notifications', 'list', '--since', '2026-11-20']);
    expect(since.code, since.stderr).toBe(0);
    expect(since.parsed?.options.since).toBe(Date.UTC(2026, 10, 20));
    const before = Date.now();
    const ago = (await parsedAs(['notifications', 'list', '--since', '2h'])).parsed?.options.since as number;
    expect(ago).toBeGreaterThanOrEqual(before - 2 * 3600_000);
    expect(ago).toBeLessThanOrEqual(Date.now() - 2 * 3600_000);
  });

  it('gives serve its fault flags as the fault rules, and refuses a bad one before it starts', async () => {
    const r = await parsedAs([
      'serve',
      '--port',
      '0',
      '--latency',
      '5-50',
      '--fail-rate',
      '0.2',
      '--rate-limit',
      '200',
      '--fail-on',
      'POST:/insurance-coverages:500',
      '--no-events',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.parsed).toMatchObject({
      command: ['serve'],
      options: { port: 0, failRate: 0.2, rateLimit: 200, events: false, host: '127.0.0.1', maxBody: 1024 * 1024 },
    });
    expect(r.parsed?.options.latency).toEqual({ min: 5, max: 50 });
    expect(r.parsed?.options.failOn).toHaveLength(1);
    for (const [flag, value, words] of [
      ['--fail-rate', '1.5', 'must be a number from 0 to 1'],
      ['--latency', '50-10', 'must be MS or MIN-MAX'],
      ['--rate-limit', '0', 'must be a whole number of at least 1'],
      ['--fail-on', 'POST:/x:200', 'must be METHOD:PATH-PATTERN:STATUS'],
      ['--fail-on', '/x:500', 'must be METHOD:PATH-PATTERN:STATUS'],
      ['--port', '65536', 'must be a whole number from 0 to 65535'],
    ]) {
      const bad = await parsedAs(['serve', flag, value]);
      expect(bad.code, `${flag} ${value}`).toBe(2);
      expect(bad.parsed).toBeUndefined();
      expect(bad.stderr).toContain(`invalid option ${flag}: ${words}`);
    }
  });
});
