import { lstat, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clinadmin } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

// serve --ready-file: started in one line, and waited on through a file, as a CI job does.

/** The ready file once it is there and names this process (a stale one from before must not count). */
async function readyOf(path: string, pid: number | undefined, stopped: () => boolean) {
  for (;;) {
    // Before serve has replaced what was there, the name may hold anything.
    const text = await readFile(path, 'utf8').catch(() => '');
    const ready = text.startsWith('{') ? (JSON.parse(text) as { url: string; pid: number }) : undefined;
    if (ready && ready.pid === pid) return ready;
    if (stopped()) throw new Error('serve stopped before it was ready');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('serve --ready-file', () => {
  it('writes {"url","pid"} once serve answers, replaces a planted link unfollowed, gone at the stop', async () => {
    const dir = await tempDir();
    const ready = join(dir, 'ready.json');
    // A link planted where the file goes: it is replaced, and what it points at is never written.
    await writeFile(join(dir, 'victim'), 'keep me\n');
    await symlink(join(dir, 'victim'), ready);
    const proc = clinadmin(['serve', '--port', '0', '--data', 'd.json', '--token', 't', '--ready-file', 'ready.json'], {
      cwd: dir,
    });
    let stopped = false;
    void proc.finally(() => {
      stopped = true;
    });
    try {
      const r = await readyOf(ready, proc.pid, () => stopped);
      expect(r.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(Object.keys(r)).toEqual(['url', 'pid']);
      const health = await fetch(`${r.url}/healthz`);
      expect(health.status).toBe(200);
      expect((await lstat(ready)).isFile()).toBe(true);
      expect(await readFile(join(dir, 'victim'), 'utf8')).toBe('keep me\n');
    } finally {
      proc.kill('SIGTERM');
    }
    const done = await proc;
    expect(done.exitCode).toBe(0);
    await expect(lstat(ready)).rejects.toThrow(/ENOENT/);
  });
});
