// Covers: src/cli.ts src/files/atomic.ts src/commands/resource/edit-run.ts
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

// What the platform refuses (a folder that is not there, a host no resolver knows) is said in a sentence
// about the user's own path or host, exit 1, never as our fault with "report it"; and edit never waits
// forever for a person when no one is at a terminal.

describe('what the platform refuses', () => {
  it('names the file asked for when its folder is missing, not a temp file, and asks for no report', async () => {
    const dir = await tempDir();
    const server = await testServer({ seed: true });
    const out = join(dir, 'no-such-folder', 'catalog.json');
    const r = await runCli(['measures', 'export', '--out', out], { env: cliEnv(server.url, dir), cwd: dir });
    expect(r.stderr).toBe(`error: ${out}: no such file or folder\n`);
    expect(r.code).toBe(1);
  });

  it('says a host cannot be found when serve is asked to listen on one', async () => {
    const dir = await tempDir();
    const r = await runCli(['serve', '--host', 'no-such-host.invalid', '--data', join(dir, 'd.json')], {
      env: cliEnv('http://127.0.0.1:9', dir),
      cwd: dir,
    });
    expect(r.stderr).toContain('error: no host named no-such-host.invalid was found\n');
    expect(r.stderr).not.toContain('unexpected');
    expect(r.code).toBe(1);
  });

  it('refuses edit with no terminal and no EDITOR, rather than wait for a person forever', async () => {
    const dir = await tempDir();
    const server = await testServer({ seed: true });
    const r = await runCli(['measures', 'edit', 'anything'], {
      env: { ...cliEnv(server.url, dir), EDITOR: '', VISUAL: '' },
      cwd: dir,
    });
    expect(r.stderr).toBe(
      'error: edit opens vi, and no one is at a terminal to use it\n' +
        'hint: set EDITOR to a command that edits a file in place, or use `clinadmin measures update`\n',
    );
    expect(r.code).toBe(2);
  });
});
