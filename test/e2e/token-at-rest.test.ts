// Covers: src/config/update.ts src/files/atomic.ts src/api/redact.ts
import { chmod, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

const TOKEN = 'tok-SCAN-5f1e2d3c4b5a6978';
const WRONG = 'tok-WRONG-a1b2c3d4e5f60718';

/** Every file below `dir`, with its bytes. */
async function files(dir: string): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  for (const rel of await readdir(dir, { recursive: true })) {
    const path = join(dir, rel);
    if ((await stat(path)).isFile()) out.push({ path, text: (await readFile(path)).toString('latin1') });
  }
  return out;
}

describe('nothing the CLI writes holds a token, except the config store', () => {
  it('after login, a failed login, list, import --report, edit, export and logout', async () => {
    const home = await tempDir();
    const folders = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache') };
    const tmp = await tempDir();
    const server = await serveProcess(['--seed', '--data', join(await tempDir(), 'data.json'), '--token', TOKEN]);
    const env = { ...folders, TMPDIR: tmp };
    const run = (args: string[], extra: Record<string, string> = {}, input?: string) =>
      clinadmin(args, { env: { ...env, ...extra }, ...(input === undefined ? {} : { input }) });

    const wrong = await run(['login', '--base-url', server.url, '--token', WRONG]);
    expect(wrong.exitCode).toBe(4);
    expect((await run(['login', '--base-url', server.url, '--token', TOKEN])).exitCode).toBe(0);
    expect((await run(['measures', 'list'])).exitCode).toBe(0);
    await writeFile(
      join(home, 'catalog.json'),
      JSON.stringify([{ test: 'tst_scan', name: 'Scan', type: 'numeric', unit: 'mg/dL' }]),
    );
    const report = join(home, 'report.json');
    expect((await run(['measures', 'import', join(home, 'catalog.json'), '--report', report])).exitCode).toBe(0);
    // The editor records the environment it was given, then makes a change that is sent.
    const editor = join(home, 'editor.sh');
    await writeFile(
      editor,
      `#!/bin/sh\nenv > "${join(home, 'editor-env.txt')}"\nsed -i 's/"mEq\\/L"/"mmol\\/L"/' "$1"\n`,
    );
    await chmod(editor, 0o755);
    const edited = await run(['measures', 'edit', 'msr_k'], { EDITOR: editor, VISUAL: '', CLINADMIN_TOKEN: TOKEN });
    expect(edited.exitCode, edited.stderr).toBe(0);
    expect(await readFile(join(home, 'editor-env.txt'), 'utf8')).toMatch(/^HOME=/m);
    const abandoned = await run(['measures', 'edit', 'msr_k'], { EDITOR: 'false', VISUAL: '' });
    expect(abandoned.exitCode).toBe(1);
    expect((await run(['measures', 'export', '--out', join(home, 'export.json')])).exitCode).toBe(0);
    expect((await run(['--verbose', 'whoami'])).exitCode).toBe(0);
    expect((await run(['logout'])).exitCode).toBe(0);

    const config = join(folders.XDG_CONFIG_HOME, 'clinadmin', 'config.json');
    const written = [...(await files(home)), ...(await files(tmp))];
    expect(written.map((f) => f.path)).toContain(report);
    const holding = written.filter((f) => f.text.includes(TOKEN) || f.text.includes(WRONG)).map((f) => f.path);
    // logout removed it from the config file too; before it, only the config file held it.
    expect(holding).toEqual([]);
    expect(await readFile(config, 'utf8')).not.toContain(TOKEN);
    // Each edit's temp folder went with it: applied and abandoned alike.
    expect(await readdir(tmp)).toEqual([]);
  });

  it('only the config file holds the token while logged in', async () => {
    const home = await tempDir();
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache') };
    const server = await serveProcess(['--seed', '--data', join(await tempDir(), 'data.json'), '--token', TOKEN]);
    expect((await clinadmin(['login', '--base-url', server.url, '--token', TOKEN], { env })).exitCode).toBe(0);
    expect((await clinadmin(['notifications', 'list'], { env })).exitCode).toBe(0);
    const holding = (await files(home)).filter((f) => f.text.includes(TOKEN)).map((f) => f.path);
    expect(holding).toEqual([join(home, '.config', 'clinadmin', 'config.json')]);
    expect((await stat(holding[0])).mode & 0o777).toBe(0o600);
  });

  it('keeps the mode of an --out or --report file written before (0600 stays 0600)', async () => {
    const home = await tempDir();
    const server = await serveProcess(['--seed', '--data', join(await tempDir(), 'data.json'), '--token', TOKEN]);
    const env = { CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: TOKEN };
    const out = join(home, 'export.json');
    const report = join(home, 'report.json');
    for (const f of [out, report]) await writeFile(f, 'old', { mode: 0o600 });
    expect((await clinadmin(['measures', 'export', '--out', out], { env })).exitCode).toBe(0);
    const catalog = join(home, 'catalog.json');
    await writeFile(catalog, JSON.stringify([{ test: 'tst_mode', name: 'Mode', type: 'text' }]));
    expect((await clinadmin(['measures', 'import', catalog, '--report', report], { env })).exitCode).toBe(0);
    for (const f of [out, report]) {
      expect((await stat(f)).mode & 0o777, f).toBe(0o600);
      expect(await readFile(f, 'utf8'), f).not.toBe('old');
    }
  });

  // Logged in, the config store is read through conf, whose writer hooks every exit signal when loaded and
  // re-raises Ctrl-C: the edit must still clean up and say so.
  it.each([
    ['the token from the environment', false],
    ['a logged-in profile', true],
  ])('removes the edit folder when Ctrl-C ends the editor, and says nothing was sent (%s)', async (_, login) => {
    const tmp = await tempDir();
    const home = await tempDir();
    const server = await serveProcess(['--seed', '--data', join(await tempDir(), 'data.json'), '--token', TOKEN]);
    const config = { CLINADMIN_CONFIG_DIR: join(home, 'config') };
    const connection = login ? config : { ...config, CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: TOKEN };
    if (login) {
      const r = await clinadmin(['login', '--base-url', server.url, '--token-stdin'], { env: config, input: TOKEN });
      expect(r.exitCode).toBe(0);
    }
    // Ctrl-C at a terminal signals the whole foreground process group: clinadmin, the shell and the editor.
    const editor = join(home, 'ctrl-c.sh');
    await writeFile(editor, '#!/bin/sh\nkill -INT 0\nsleep 5\n');
    await chmod(editor, 0o755);
    const r = await clinadmin(['measures', 'edit', 'msr_k'], {
      env: { ...connection, TMPDIR: tmp, EDITOR: editor, VISUAL: '' },
      // Its own process group, as a command run at a terminal has: the signal reaches no test runner.
      detached: true,
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/the editor \(.*ctrl-c\.sh\) exited with SIGINT; nothing was sent/);
    expect(await readdir(tmp)).toEqual([]);
  });
});
