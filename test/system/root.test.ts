// Covers: bin/compile-cache.cjs src/server/ready-file.ts src/server/store/data-file-lock.ts
import { chmod, chown, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, clinadmin, serveProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

// These need root, as CI has: another user's folder, and another PID namespace. Run as any other user,
// chown and unshare fail, and so does the test.

/** nobody: a user this process is not. */
const OTHER_UID = 65534;

describe('what another user could plant is never used', () => {
  it('passes over a compile-cache folder owned by another user, writing nothing there', async () => {
    const root = await tempDir();
    const folder = join(root, 'clinadmin', 'compile-cache');
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await chown(folder, OTHER_UID, OTHER_UID);
    const r = await clinadmin(['measures', 'create', '--help'], { env: { XDG_CACHE_HOME: root } });
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    expect((await readdir(root, { recursive: true })).filter((f) => f.includes(`compile-cache${sep}`))).toEqual([]);
  });
});

describe('serve removes only what it made', () => {
  it("refuses a --ready-file that is another user's file in a sticky folder, and leaves it", async () => {
    const dir = await tempDir();
    const shared = join(dir, 'shared');
    await mkdir(shared);
    await chmod(shared, 0o1777);
    const theirs = join(shared, 'ready.json');
    await writeFile(theirs, '{"url":"http://127.0.0.1:1","pid":1}\n');
    await chown(theirs, OTHER_UID, OTHER_UID);
    const r = await clinadmin([
      'serve',
      '--port',
      '0',
      '--data',
      join(dir, 'd.json'),
      '--token',
      't',
      '--ready-file',
      theirs,
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`it belongs to another user (uid ${OTHER_UID})`);
    expect(await readFile(theirs, 'utf8')).toBe('{"url":"http://127.0.0.1:1","pid":1}\n');
  });
});

describe('one server per data file across PID namespaces', () => {
  it('refuses a second server in another PID namespace while the first one lives', async () => {
    const dir = await tempDir();
    const data = join(dir, 'data.json');
    const first = await serveProcess(['--data', data, '--token', 't']);
    // Its pid means nothing in the new namespace (kill(pid, 0) there says no such process): only the
    // lock's heartbeat tells that the holder lives, as for a container sharing the volume and hostname.
    const second = await execa(
      'unshare',
      ['--pid', '--fork', 'node', BIN, 'serve', '--port', '0', '--data', data, '--token', 't'],
      { reject: false, env: { ...process.env, NO_COLOR: '1', CI: '1' }, timeout: 30_000 },
    );
    expect(second.exitCode, second.stderr).toBe(2);
    expect(second.stderr).toMatch(new RegExp(`in use by another clinadmin serve \\(process ${first.proc.pid}\\)`));
    first.proc.kill('SIGTERM');
    expect((await first.proc).exitCode).toBe(0);
  });
});
