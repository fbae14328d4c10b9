// Covers: src/server/ready-file.ts src/files/own-file.ts
import { chmod, lstat, readFile, rename, symlink, writeFile } from 'node:fs/promises';
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

  it.each([
    ['data file', ['--data', 'keep.json']],
    ['--load file', ['--load', 'keep.json']],
    ['--token-file', ['--token-file', 'keep.json']],
  ])('refuses a ready file that is the %s in one line, and leaves it as it was', async (what, args) => {
    const dir = await tempDir();
    const text = what === '--token-file' ? 'tok-0123456789\n' : '{"measures": []}\n';
    await writeFile(join(dir, 'keep.json'), text, { mode: 0o600 });
    await chmod(join(dir, 'keep.json'), 0o600);
    const base = what === 'data file' ? [] : ['--data', 'd.json'];
    const token = what === '--token-file' ? [] : ['--token', 't'];
    const r = await clinadmin(
      ['serve', '--port', '0', ...base, ...token, ...args, '--ready-file', './sub/../keep.json'],
      {
        cwd: dir,
      },
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      `error: --ready-file ${join(dir, 'keep.json')} is the ${what}: give the ready file a name of its own`,
    ]);
    expect(await readFile(join(dir, 'keep.json'), 'utf8')).toBe(text);
  });

  it("refuses a ready file that is the data file's journal, even empty", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'd.json.journal'), '');
    const r = await clinadmin(
      ['serve', '--port', '0', '--data', 'd.json', '--token', 't', '--ready-file', 'd.json.journal'],
      { cwd: dir },
    );
    expect(r.exitCode).toBe(2);
    const journal = join(dir, 'd.json.journal');
    expect(r.stderr.trim()).toBe(
      `error: --ready-file ${journal} is the data file's journal: give the ready file a name of its own`,
    );
    expect(await readFile(join(dir, 'd.json.journal'), 'utf8')).toBe('');
  });

  it('refuses a name holding something other than a ready file, and leaves it alone', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'notes.txt'), 'keep me\n');
    const r = await clinadmin(
      ['serve', '--port', '0', '--data', 'd.json', '--token', 't', '--ready-file', 'notes.txt'],
      {
        cwd: dir,
      },
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('holds something other than a ready file');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('keep me\n');
  });

  it('at the stop leaves the ready file another serve wrote at the same name since', async () => {
    const dir = await tempDir();
    const ready = join(dir, 'ready.json');
    const proc = clinadmin(['serve', '--port', '0', '--data', 'd.json', '--token', 't', '--ready-file', 'ready.json'], {
      cwd: dir,
    });
    let stopped = false;
    void proc.finally(() => {
      stopped = true;
    });
    const other = '{"url":"http://127.0.0.1:1","pid":1}\n';
    try {
      await readyOf(ready, proc.pid, () => stopped);
      // A second serve's ready file, renamed in whole over this one's as writeReadyFile did before.
      await writeFile(join(dir, 'other.tmp'), other);
      await rename(join(dir, 'other.tmp'), ready);
    } finally {
      proc.kill('SIGTERM');
    }
    expect((await proc).exitCode).toBe(0);
    expect(await readFile(ready, 'utf8')).toBe(other);
  });

  it('refuses at the start the ready file of a serve still running, and leaves it to that serve', async () => {
    const dir = await tempDir();
    const ready = join(dir, 'ready.json');
    const args = (data: string) => [
      'serve',
      '--port',
      '0',
      '--data',
      data,
      '--token',
      't',
      '--ready-file',
      'ready.json',
    ];
    const first = clinadmin(args('a.json'), { cwd: dir });
    let firstStopped = false;
    void first.finally(() => {
      firstStopped = true;
    });
    try {
      const r = await readyOf(ready, first.pid, () => firstStopped);
      const written = await readFile(ready, 'utf8');
      // A second serve over other data, named the same ready file: it stops, or writes its own there.
      const second = clinadmin(args('b.json'), { cwd: dir });
      let secondStopped = false;
      void second.finally(() => {
        secondStopped = true;
      });
      try {
        await readyOf(ready, second.pid, () => secondStopped).catch(() => undefined);
      } finally {
        second.kill('SIGTERM');
      }
      const done = await second;
      expect(done.exitCode).toBe(2);
      expect(done.stderr).toContain(`the ready file of serve ${first.pid}, which is still running`);
      expect(done.stderr.trim().split('\n')).toHaveLength(1);
      expect(await readFile(ready, 'utf8')).toBe(written);
      expect((await fetch(`${r.url}/healthz`)).status).toBe(200);
    } finally {
      first.kill('SIGTERM');
    }
    expect((await first).exitCode).toBe(0);
  });
});
