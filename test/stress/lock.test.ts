// Covers: src/server/store/data-file-lock.ts src/lock/lock.ts
import { link, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

/** Starts `count` servers on one data file at once; resolves with how many listen, then stops them all. */
async function race(data: string, count: number): Promise<{ listening: number; refusals: string[] }> {
  const procs = Array.from({ length: count }, () =>
    clinadmin(['serve', '--port', '0', '--data', data, '--token', 't'], { buffer: true }),
  );
  // Each either says it listens or exits: wait for one or the other from every process.
  const outcomes = await Promise.all(
    procs.map(
      (proc) =>
        new Promise<'listening' | string>((resolve) => {
          let out = '';
          proc.stdout?.on('data', (d: Buffer) => {
            out += d.toString();
            if (/listening on http/.test(out)) resolve('listening');
          });
          void proc.then((r) => resolve(String(r.stderr)));
        }),
    ),
  );
  for (const p of procs) p.kill('SIGTERM');
  await Promise.all(procs);
  return {
    listening: outcomes.filter((o) => o === 'listening').length,
    refusals: outcomes.filter((o) => o !== 'listening'),
  };
}

/** The pid of a process that has exited: provably gone (on this host, until the pid is reused). */
async function deadPid(): Promise<number> {
  const p = execa('node', ['-e', '0']);
  await p;
  return p.pid!;
}

describe('one server per data file', () => {
  it('lets exactly one of 6 servers started together listen, 10 times', async () => {
    for (let round = 0; round < 10; round++) {
      const data = join(await tempDir(), 'data.json');
      const { listening, refusals } = await race(data, 6);
      expect(listening, `round ${round}`).toBe(1);
      expect(refusals).toHaveLength(5);
      for (const r of refusals) expect(r).toMatch(/is in use by another clinadmin serve \(process \d+\)/);
    }
  }, 120_000);

  it('lets exactly one of 2 servers take over a stale lock, 20 times', async () => {
    for (let round = 0; round < 20; round++) {
      const dir = await tempDir();
      const data = join(dir, 'data.json');
      await writeFile(`${data}.lock`, JSON.stringify({ pid: await deadPid(), host: hostname(), since: 1 }));
      const { listening } = await race(data, 2);
      expect(listening, `round ${round}`).toBe(1);
      // Nothing of the takeover is left behind once the servers have stopped.
      expect((await readdir(dir)).filter((f) => f.includes('.lock'))).toEqual([]);
    }
  }, 120_000);

  it('takes over a lock of the old format (a bare pid) whose process is gone', async () => {
    const data = join(await tempDir(), 'data.json');
    await writeFile(`${data}.lock`, `${await deadPid()}\n`);
    expect((await race(data, 1)).listening).toBe(1);
  });

  it('refuses a second server that reaches the same file through a hard link (its device and inode)', async () => {
    const dir = await tempDir();
    const data = join(dir, 'data.json');
    const other = join(dir, 'other.json');
    await writeFile(data, JSON.stringify({ formatVersion: 2, diagnosticMeasures: [] }));
    await link(data, other);
    const first = await serveProcess(['--data', data, '--token', 't']);
    const second = await clinadmin(['serve', '--port', '0', '--data', other, '--token', 't']);
    expect(second.exitCode).toBe(2);
    expect(second.stderr).toMatch(new RegExp(`in use by another clinadmin serve \\(process ${first.proc.pid}\\)`));
    first.proc.kill('SIGTERM');
    expect((await first.proc).exitCode).toBe(0);
    expect((await readdir(dir)).filter((f) => f.includes('.lock'))).toEqual([]);
  });

  it('refuses a second server that reaches the same file through a symlink, and folds through the link', async () => {
    const dir = await tempDir();
    const real = join(dir, 'real.json');
    const link = join(dir, 'link.json');
    await writeFile(real, JSON.stringify({ formatVersion: 2, diagnosticMeasures: [] }));
    await symlink(real, link);
    const first = clinadmin(['serve', '--port', '0', '--seed', '--data', link, '--token', 't'], { buffer: true });
    await new Promise<void>((resolve) => {
      let out = '';
      first.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        if (/listening on/.test(out)) resolve();
      });
    });
    const second = await clinadmin(['serve', '--port', '0', '--data', real, '--token', 't']);
    expect(second.exitCode).toBe(2);
    expect(second.stderr).toMatch(new RegExp(`in use by another clinadmin serve \\(process ${first.pid}\\)`));
    first.kill('SIGTERM');
    expect((await first).exitCode).toBe(0);
    // The seed was folded into the target: the link is still a link, and the target holds the records.
    const { lstat } = await import('node:fs/promises');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(real, 'utf8')).diagnosticMeasures.length).toBeGreaterThan(0);
  });
});
