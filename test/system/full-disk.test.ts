// Covers: src/server/store/journal-file.ts src/server/store/recover.ts src/server/store/write-data-file.ts
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

const mounts: string[] = [];
afterEach(async () => {
  for (const m of mounts.splice(0)) await execa('umount', [m], { reject: false });
});

/** A real, small tmpfs: the disk fills up as it would in production (mounting needs root, as CI has). */
async function smallDisk(size: string): Promise<string> {
  const dir = await tempDir();
  await execa('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  mounts.push(dir);
  return dir;
}

/** Writes filler until the disk refuses, so that the next write finds it full. */
async function fill(dir: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await writeFile(join(dir, `filler-${i}`), Buffer.alloc(4096, 1));
    } catch {
      return;
    }
  }
}

const body = (i: number) => ({
  test: 'tst_disk',
  name: `Measure ${i}`,
  type: 'numeric',
  unit: 'mg/dL',
  description: 'x'.repeat(3000),
});

/** POSTs measures concurrently, a few at a time; the ids the server acknowledged with 200. */
async function post(url: string, from: number, count: number): Promise<{ ok: string[]; refused: number[] }> {
  const ok: string[] = [];
  const refused: number[] = [];
  for (let i = from; i < from + count; i += 8) {
    await Promise.all(
      Array.from({ length: Math.min(8, from + count - i) }, async (_, k) => {
        const res = await fetch(`${url}/diagnostic-measures`, {
          method: 'POST',
          headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
          body: JSON.stringify(body(i + k)),
        });
        const answer = await res.json();
        if (res.status === 200) ok.push(answer.id);
        else {
          expect(res.headers.get('content-type')).toMatch(/problem\+json/);
          refused.push(res.status);
        }
      }),
    );
  }
  return { ok, refused };
}

async function listIds(url: string): Promise<string[]> {
  const res = await fetch(`${url}/diagnostic-measures`, { headers: { authorization: 'Bearer t' } });
  expect(res.status).toBe(200);
  return ((await res.json()) as Array<{ id: string }>).map((m) => m.id);
}

describe('serve on a full disk (a real tmpfs)', () => {
  it('acknowledges only what is on disk, recovers it after kill -9, and stops cleanly without losing it', async () => {
    const disk = await smallDisk('600k');
    const data = join(disk, 'data.json');
    // Room that can be given back later.
    await writeFile(join(disk, 'spare'), Buffer.alloc(150 * 1024, 1));

    let server = await serveProcess(['--data', data, '--token', 't']);
    const first = await post(server.url, 0, 400);
    expect(first.ok.length, 'some writes fit').toBeGreaterThan(20);
    expect(first.refused.length, 'the disk filled up').toBeGreaterThan(20);
    expect(new Set(first.refused)).toEqual(new Set([503]));
    server.proc.kill('SIGKILL');
    await server.proc;

    // On the still-full disk a start cannot even write its lock: it says so and changes nothing.
    const refused = await clinadmin(['serve', '--port', '0', '--data', data, '--token', 't']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/the disk is full; free some space and start again/);

    // Space comes back: the restart has every acknowledged create, and takes writes again.
    await rm(join(disk, 'spare'));
    server = await serveProcess(['--data', data, '--token', 't']);
    expect(await listIds(server.url)).toEqual(expect.arrayContaining(first.ok));
    const second = await post(server.url, 400, 20);
    expect(second.ok.length).toBeGreaterThan(0);
    server.proc.kill('SIGKILL');
    await server.proc;
    server = await serveProcess(['--data', data, '--token', 't']);
    expect(server.stderr()).not.toMatch(/damaged/);
    const afterSecond = await listIds(server.url);
    expect(afterSecond).toEqual(expect.arrayContaining([...first.ok, ...second.ok]));

    // A clean stop on a full disk cannot fold: it says so in one line, leaves no temp file, loses nothing.
    await fill(disk);
    server.proc.kill('SIGTERM');
    const stopped = await server.proc;
    expect(stopped.exitCode).toBe(1);
    const errors = String(stopped.stderr)
      .split('\n')
      .filter((l) => l.startsWith('error:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/could not fold the journal .*the disk is full.*next start recovers it/);
    expect((await readdir(disk)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    for (const f of (await readdir(disk)).filter((n) => n.startsWith('filler-'))) await rm(join(disk, f));
    server = await serveProcess(['--data', data, '--token', 't']);
    expect(await listIds(server.url)).toEqual(expect.arrayContaining(afterSecond));
    // With room to fold (the disk grown), a stop folds everything into the data file alone.
    await execa('mount', ['-o', 'remount,size=8m', disk]);
    server.proc.kill('SIGTERM');
    expect((await server.proc).exitCode).toBe(0);
    expect((await readdir(disk)).filter((f) => f.startsWith('data.json'))).toEqual(['data.json']);
    const saved = JSON.parse(await readFile(data, 'utf8')).diagnosticMeasures.map((m: { id: string }) => m.id);
    expect(saved).toEqual(expect.arrayContaining(afterSecond));
  }, 120_000);
});
