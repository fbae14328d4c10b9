// Covers: src/config/ src/commands/config.ts src/commands/config-run.ts src/commands/login.ts src/commands/login-run.ts
// Covers: src/commands/connect.ts src/commands/suggest.ts
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { TOKEN, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

async function setup() {
  const server = await testServer({ seed: true });
  const dir = join(await tempDir(), 'config');
  const env = { CLINADMIN_CONFIG_DIR: dir };
  const cli = (argv: string[], o: Parameters<typeof runCli>[1] = {}) =>
    runCli(argv, { ...o, env: { ...env, ...o.env } });
  const file = async () => JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));
  return { server, dir, cli, file };
}

describe('profiles', () => {
  it('refuses an unknown profile with a guess, except login, which creates it and says so', async () => {
    const { server, cli, file } = await setup();
    await cli(['login', '--base-url', server.url, '--token', TOKEN]);
    const staging = await cli(['login', '--profile', 'staging', '--base-url', server.url, '--token', TOKEN]);
    expect(staging.code).toBe(0);
    expect(staging.stderr).toBe(
      `Logged in to ${server.url} (created profile staging); token test…6789 stored.\n` +
        'The current profile is still default: use --profile staging, or `clinadmin config use-profile staging`.\n',
    );
    expect((await file()).currentProfile).toBe('default');
    const typo = await cli(['config', 'use-profile', 'stagng']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      'error: no profile named stagng; did you mean staging?\n' +
        'hint: the profiles: default, staging; `clinadmin login --profile stagng` creates one\n',
    );
    expect((await file()).profiles.stagng).toBeUndefined();
    for (const argv of [
      ['--profile', 'stagin', 'measures', 'list'],
      ['whoami', '--profile', 'stagin'],
      ['config', 'get', 'base-url', '--profile', 'stagin'],
    ]) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(/^error: no profile named stagin; did you mean staging\?/);
    }
    const fromEnv = await cli(['measures', 'list'], { env: { CLINADMIN_PROFILE: 'prod' } });
    expect(fromEnv.stderr).toMatch(/^error: no profile named prod\n/);
    const use = await cli(['login', '--profile', 'staging', '--base-url', server.url, '--token', TOKEN, '--use']);
    expect(use.code).toBe(0);
    expect((await file()).currentProfile).toBe('staging');
    const switched = await cli(['config', 'use-profile', 'default']);
    expect(switched.code).toBe(0);
    expect((await file()).currentProfile).toBe('default');
  });
});

describe('login, logout and whoami', () => {
  it('checks the pair, stores it owner-only, and then commands work without flags', async () => {
    const { server, dir, cli, file } = await setup();
    const r = await cli(['login', '--base-url', server.url, '--token-stdin', '--account', 'acc_support'], {
      stdin: `${TOKEN}\n`,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `Logged in to ${server.url} (created profile default, account acc_support); token test…6789 stored.\n`,
    );
    expect(r.stdout).toBe('');
    expect(await file()).toEqual({
      currentProfile: 'default',
      profiles: { default: { baseUrl: server.url, token: TOKEN, account: 'acc_support' } },
    });
    expect((await stat(join(dir, 'config.json'))).mode & 0o777).toBe(0o600);
    const list = await cli(['measures', 'list', '--fields', 'id']);
    expect(JSON.parse(list.stdout)[0]).toEqual({ id: 'msr_hgb' });
  });

  it('stores nothing when the server refuses the token', async () => {
    const { server, dir, cli } = await setup();
    const r = await cli(['login', '--base-url', server.url, '--token', 'wrong-token']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/the API refused the token/);
    await expect(stat(join(dir, 'config.json'))).rejects.toThrow();
  });

  it('never prompts without a terminal: missing input is a usage error naming the flags', async () => {
    const { cli } = await setup();
    const r = await cli(['login']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing --base-url and --token or --token-stdin: no terminal to ask at');
  });

  it('whoami shows the masked token and whether the server answers; logout removes the token', async () => {
    const { server, cli, file } = await setup();
    await cli(['login', '--base-url', server.url, '--token', TOKEN]);
    const who = await cli(['whoami', '-o', 'json']);
    expect(who.code).toBe(0);
    const info = JSON.parse(who.stdout);
    expect(info).toMatchObject({ profile: 'default', baseUrl: server.url, token: 'test…6789', account: '(not set)' });
    expect(info.server).toMatch(/^answers, token accepted/);
    expect(who.stdout + who.stderr).not.toContain(TOKEN);
    // At a terminal, a describe view: each value with where it came from, no JSON in a cell.
    const view = await cli(['whoami'], { stdoutTTY: true });
    expect(view.stdout).toMatch(/^Base URL:\s+http:\/\/127\.0\.0\.1:\d+ \(from profile default\)$/m);
    expect(view.stdout).toMatch(/^Token:\s+test…6789 \(from profile default\)$/m);
    expect(view.stdout).toMatch(/^Server:\s+answers, token accepted \(\d+ ms\)$/m);
    expect(view.stdout).not.toMatch(/[{}│]/);
    const out = await cli(['logout']);
    expect(out.code).toBe(0);
    expect((await file()).profiles.default).toEqual({ baseUrl: server.url });
    const after = await cli(['whoami', '-o', 'json']);
    expect(after.code).toBe(4);
    expect(JSON.parse(after.stdout).token).toBe('(none)');
  });
});

describe('config', () => {
  it('sets, gets, unsets and lists settings per profile, masking tokens', async () => {
    const { server, cli, file } = await setup();
    expect((await cli(['config', 'set', 'base-url', 'http://127.0.0.1:4010'])).code).toBe(0);
    const argv = await cli(['config', 'set', 'token', 'abcd-secret-wxyz']);
    expect(argv.stderr).toMatch(/^warning: a token on the command line ends up in shell history and the process list/);
    // "-" reads the value from standard input; the literal "-" is never stored.
    const stdin = await cli(['config', 'set', 'token', '-'], { stdin: 'abcd-secret-wxyz\n' });
    expect(stdin.stderr).toBe('set token in profile default\n');
    expect((await file()).profiles.default.token).toBe('abcd-secret-wxyz');
    const empty = await cli(['config', 'set', 'token', '-'], { stdin: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^error: token: standard input was empty; nothing was set/);
    // Only login creates a profile; config set refuses one that does not exist.
    const unknown = await cli(['--profile', 'staging', 'config', 'set', 'account', 'acc_stage']);
    expect(unknown.stderr).toMatch(/^error: no profile named staging\n/);
    await cli(['login', '--profile', 'staging', '--base-url', server.url, '--token', TOKEN]);
    await cli(['logout', '--profile', 'staging']);
    await cli(['--profile', 'staging', 'config', 'set', 'account', 'acc_stage']);
    expect((await cli(['config', 'get', 'base-url'])).stdout).toBe('http://127.0.0.1:4010\n');
    expect((await cli(['config', 'get', 'token'])).stdout).toBe('abcd…wxyz\n');
    expect((await cli(['config', 'get', 'token', '--show-secret'])).stdout).toBe('abcd-secret-wxyz\n');
    const list = await cli(['config', 'list', '-o', 'json']);
    expect(JSON.parse(list.stdout)).toEqual([
      { profile: 'default', current: true, 'base-url': 'http://127.0.0.1:4010', token: 'abcd…wxyz' },
      { profile: 'staging', current: false, 'base-url': server.url, token: '(none)', account: 'acc_stage' },
    ]);
    expect(list.stdout).not.toContain('secret');
    await cli(['config', 'unset', 'token']);
    expect((await file()).profiles.default).toEqual({ baseUrl: 'http://127.0.0.1:4010' });
    await cli(['config', 'use-profile', 'staging']);
    expect((await cli(['config', 'get', 'account'])).stdout).toBe('acc_stage\n');
    expect((await file()).currentProfile).toBe('staging');
  });

  it('refuses unknown keys and bad URLs, and prints the path', async () => {
    const { dir, cli } = await setup();
    const key = await cli(['config', 'set', 'colour', 'red']);
    expect(key.code).toBe(2);
    expect(key.stderr).toContain('unknown config key colour');
    expect((await cli(['config', 'set', 'base-url', 'ftp://x'])).code).toBe(2);
    expect((await cli(['config', 'path'])).stdout).toBe(`${join(dir, 'config.json')}\n`);
  });

  it('reports a config file that does not parse with its path, and leaves it alone', async () => {
    const { dir, cli } = await setup();
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'config.json'), '{"profiles": {');
    const r = await cli(['config', 'set', 'account', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the config file ${join(dir, 'config.json')} is not valid JSON`);
    expect(r.stderr).toContain('hint: fix it by hand, or move it away');
    expect(await readFile(join(dir, 'config.json'), 'utf8')).toBe('{"profiles": {');
  });

  it('reports a config file that parses to something other than an object, and leaves it alone', async () => {
    const { dir, cli } = await setup();
    await mkdir(dir, { recursive: true });
    for (const text of ['[]', 'null', '"x"']) {
      await writeFile(join(dir, 'config.json'), text);
      const r = await cli(['config', 'list']);
      expect(r.code, text).toBe(2);
      expect(r.stderr, text).toContain(`the config file ${join(dir, 'config.json')} does not hold a JSON object`);
      expect(await readFile(join(dir, 'config.json'), 'utf8')).toBe(text);
    }
  });
});

describe('a config file that is not a file', () => {
  it('refuses a link to a FIFO or a device, never waiting on it or changing its mode', async () => {
    const { cli, dir } = await setup();
    await mkdir(dir, { recursive: true });
    const fifo = join(dir, '..', 'pipe');
    execFileSync('mkfifo', [fifo]);
    await symlink(fifo, join(dir, 'config.json'));
    for (const argv of [
      ['config', 'set', 'base-url', 'http://127.0.0.1:9'],
      ['config', 'list'],
    ]) {
      const r = await cli(argv);
      expect(r.stderr, argv.join(' ')).toBe(
        `error: the config file ${join(dir, 'config.json')} is not a regular file\n` +
          'hint: move it away and run `clinadmin login` again, or set CLINADMIN_CONFIG_DIR to another folder\n',
      );
      expect(r.code).toBe(2);
    }
    // The FIFO keeps its mode: nothing chmod-ed through the link.
    expect((await stat(fifo)).mode & 0o777).toBe(0o644 & ~process.umask());
  });
});
