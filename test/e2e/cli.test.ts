// Covers: src/cli.ts src/commands/connect.ts src/commands/completion.ts src/commands/completion-run.ts
// Covers: src/config/update.ts scripts/generate.mjs src/version.ts
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { clinadmin } from '../helpers/bin.js';
import { binOnPath, E2E_TOKEN, loggedIn } from '../helpers/logged-in.js';
import { tempDir } from '../helpers/tmp.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = E2E_TOKEN;

describe('the built binary', () => {
  it('prints its version and help without a server', async () => {
    const v = await clinadmin(['--version']);
    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    expect(v).toMatchObject({ exitCode: 0, stdout: version, stderr: '' });
    const h = await clinadmin(['--help']);
    expect(h.exitCode).toBe(0);
    expect(h.stdout).toContain('Exit codes:');
    expect(h.stdout).toMatch(/130\s+interrupted/);
  });

  it('runs every resource command against serve, keeping stdout for data', async () => {
    const { run } = await loggedIn();
    const list = await run(['measures', 'list']);
    expect(list.exitCode).toBe(0);
    expect(JSON.parse(list.stdout).length).toBe(6);
    expect(list.stderr).toBe('');
    const created = await run([
      'coverages',
      'create',
      '--contract',
      'ctr_state_2026',
      '--name',
      'Swabs',
      '--type',
      'deduction',
      '--percentage',
      '100',
    ]);
    expect(created.exitCode).toBe(0);
    const { id, createdBy } = JSON.parse(created.stdout);
    expect(createdBy).toBe('acc_e2e');
    expect((await run(['coverages', 'update', id, '--name', 'Swabs 2027'])).exitCode).toBe(0);
    expect(JSON.parse((await run(['coverages', 'show', id])).stdout).name).toBe('Swabs 2027');
    const del = await run(['coverages', 'delete', id]);
    expect(del.exitCode).toBe(2);
    expect((await run(['coverages', 'delete', id, '--yes'])).exitCode).toBe(0);
    expect((await run(['coverages', 'show', id])).exitCode).toBe(3);
    const notes = await run(['notifications', 'list', '-o', 'csv', '--fields', 'code']);
    expect(notes.stdout.split('\r\n')).toEqual(
      expect.arrayContaining(['code', 'coverage-created', 'coverage-updated', 'coverage-deleted']),
    );
    expect(JSON.parse((await run(['notifications', 'show', 'ntf_stock_low'])).stdout).seenBy).toEqual(['acc_e2e']);
  });

  it('keeps the config file owner-only and never prints the token, even with --verbose', async () => {
    const { dir, run } = await loggedIn();
    expect((await stat(join(dir, 'config', 'config.json'))).mode & 0o777).toBe(0o600);
    const outputs = await Promise.all([
      run(['measures', 'list', '--verbose']),
      run(['measures', 'show', 'msr_nope', '--verbose']),
      run(['coverages', 'create', '--contract', 'nope', '--name', 'x', '--type', 'unknown', '--verbose']),
      run(['whoami', '--verbose']),
      run(['config', 'list']),
      run(['config', 'get', 'token']),
      run(['api', 'GET', '/notifications', '-v']),
      run(['measures', 'list', '-v'], { CLINADMIN_TOKEN: 'wrong' }),
    ]);
    const verbose = outputs[0];
    expect(verbose.stderr).toMatch(
      /→ GET http:\/\/127\.0\.0\.1:\d+\/diagnostic-measures \(authorization: Bearer \[redacted\]\)/,
    );
    expect(verbose.stderr).toMatch(/← 200 GET .* \(\d+ ms, \d+ B\)/);
    for (const r of outputs) {
      expect(r.stdout).not.toContain(TOKEN);
      expect(r.stderr).not.toContain(TOKEN);
    }
    expect((await run(['config', 'get', 'token', '--show-secret'])).stdout).toBe(TOKEN);
  });

  it('warns when a token would travel over plain http to another host', async () => {
    // `.invalid` never resolves (RFC 6761, 6.4), so the test leaves the machine at most as a name lookup.
    const r = await clinadmin(['measures', 'list', '--timeout', '1'], {
      env: { CLINADMIN_BASE_URL: 'http://lab.invalid:9', CLINADMIN_TOKEN: 'x', CLINADMIN_CONFIG_DIR: await tempDir() },
    });
    expect(r.stderr).toContain(
      'warning: http://lab.invalid:9 uses plain http, so the token travels unencrypted; use https',
    );
    expect(r.exitCode).toBe(1);
  });

  it('keeps completions/, docs/reference/, the man pages and openapi.json as the code generates them', async () => {
    const check = await execa('node', ['scripts/generate.mjs', '--check'], { cwd: root, reject: false });
    expect(check.stderr, 'run npm run generate').toBe('');
    expect(check.exitCode).toBe(0);
    const bash = await clinadmin(['completion', 'bash'], { stripFinalNewline: false });
    expect(await readFile(join(root, 'completions', 'clinadmin.bash'), 'utf8')).toBe(bash.stdout);
  });

  it('completes commands, and ids from the configured server, in bash', async () => {
    const { env } = await loggedIn();
    const binDir = await binOnPath();
    const complete = async (words: string[]) => {
      const script =
        `source ${join(root, 'completions', 'clinadmin.bash')}; ` +
        `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; ` +
        `_clinadmin; echo "\${COMPREPLY[*]}"`;
      const r = await execa('bash', ['-c', script], {
        env: { ...env, PATH: `${binDir}:${process.env.PATH}` },
        reject: false,
        cwd: root,
      });
      return r.stdout.trim().split(' ');
    };
    expect(await complete(['clinadmin', 'mea'])).toEqual(['measures']);
    expect(await complete(['clinadmin', 'measures', ''])).toEqual([
      'list',
      'show',
      'create',
      'update',
      'delete',
      'edit',
      'import',
      'export',
      'lint',
      'evaluate',
    ]);
    expect(await complete(['clinadmin', 'measures', 'edit', 'msr_h'])).toEqual(['msr_hgb', 'msr_hcg']);
    expect(await complete(['clinadmin', 'measures', 'export', '--format', ''])).toEqual([
      'json',
      'fhir',
      'fhir-ndjson',
      'csv',
      'hl7',
    ]);
    // Values after an option with a fixed set, own or inherited; files where a file is expected.
    expect(await complete(['clinadmin', 'measures', 'list', '-o', ''])).toEqual([
      'table',
      'wide',
      'json',
      'ndjson',
      'csv',
      'yaml',
    ]);
    expect(await complete(['clinadmin', 'coverages', 'create', '--payment-method', ''])).toEqual([
      'prepaid',
      'postpaid',
    ]);
    expect(await complete(['clinadmin', 'measures', 'create', '--type', 'multi'])).toEqual(['multiplechoice']);
    expect(await complete(['clinadmin', 'measures', 'import', 'package.j'])).toEqual(['package.json']);
    expect(await complete(['clinadmin', 'coverages', 'apply', 'x.json', '--report', 'READ'])).toEqual(['README.md']);
    expect(await complete(['clinadmin', 'measures', 'create', '--file', 'tsconfig.j'])).toEqual(['tsconfig.json']);
    // Ids come from the binary being completed, even when none is on PATH (the Node running the tests is).
    const direct = await execa(
      'bash',
      [
        '-c',
        `source ${join(root, 'completions', 'clinadmin.bash')}; ` +
          `COMP_WORDS=(${join(binDir, 'clinadmin')} measures show msr_h); COMP_CWORD=3; ` +
          `_clinadmin; echo "\${COMPREPLY[*]}"`,
      ],
      { env: { ...env, PATH: `${dirname(process.execPath)}:/usr/bin:/bin` }, reject: false },
    );
    expect(direct.stdout.trim()).toBe('msr_hgb msr_hcg');
    expect(await complete(['clinadmin', 'measures', 'show', 'msr_h'])).toEqual(['msr_hgb', 'msr_hcg']);
    expect(await complete(['clinadmin', 'coverages', 'create', '--ref-'])).toEqual(['--ref-type']);
    const silent = await execa(
      'bash',
      [
        '-c',
        `source ${join(root, 'completions', 'clinadmin.bash')}; ` +
          `COMP_WORDS=(clinadmin measures show ''); COMP_CWORD=3; _clinadmin; echo "[\${COMPREPLY[*]}]"`,
      ],
      {
        env: { CLINADMIN_CONFIG_DIR: await tempDir(), PATH: `${binDir}:${process.env.PATH}` },
        reject: false,
      },
    );
    expect(silent.stdout).toBe('[]');
    expect(silent.stderr).toBe('');
  });
});
