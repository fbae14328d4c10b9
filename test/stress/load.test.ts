import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Pool } from 'undici';
import { describe, expect, it } from 'vitest';
import { serveProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

describe('under load', () => {
  it('serves 200 connections of mixed reads and writes for 30 s, loses nothing and keeps memory flat', async () => {
    const dir = await tempDir();
    // Without events, so that the records on file stay as many as the test creates and deletes.
    const s = await serveProcess(['--seed', '--no-events', '--data', join(dir, 'd.json'), '--token', 't']);
    const pool = new Pool(s.url, { connections: 200 });
    const headers = { authorization: 'Bearer t', 'content-type': 'application/json' };
    const rss = async () =>
      Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${s.proc.pid}/status`, 'utf8'))![1]) * 1024;
    const alive = new Set<string>();
    const gone = new Set<string>();
    let ops = 0;
    let failures = 0;
    const deadline = Date.now() + 30_000;
    let early = 0;
    const worker = async (w: number) => {
      for (let i = 0; Date.now() < deadline; i++) {
        try {
          const kind = (w + i) % 10;
          if (kind < 6) {
            const r = await pool.request({ path: '/diagnostic-measures/msr_hgb', method: 'GET', headers });
            await r.body.text();
            if (r.statusCode !== 200) failures++;
          } else if (kind < 8) {
            const r = await pool.request({
              path: '/diagnostic-measures/msr_k',
              method: 'PATCH',
              headers,
              body: JSON.stringify({ description: `w${w}i${i}` }),
            });
            await r.body.text();
            if (r.statusCode !== 200) failures++;
          } else if (kind === 8) {
            const r = await pool.request({
              path: '/diagnostic-measures',
              method: 'POST',
              headers,
              body: JSON.stringify({ test: 'load', name: `w${w}i${i}` }),
            });
            const body = JSON.parse(await r.body.text());
            if (r.statusCode === 200) alive.add(body.id);
            else failures++;
          } else {
            const id = [...alive][0];
            if (id) {
              alive.delete(id);
              const r = await pool.request({ path: `/diagnostic-measures/${id}`, method: 'DELETE', headers });
              await r.body.text();
              if (r.statusCode === 200) gone.add(id);
              else failures++;
            }
          }
          ops++;
        } catch {
          failures++;
        }
      }
    };
    const sampler = (async () => {
      await new Promise((r) => setTimeout(r, 8000));
      early = await rss();
    })();
    await Promise.all([...Array.from({ length: 200 }, (_, w) => worker(w)), sampler]);
    const late = await rss();
    await pool.close();
    expect(failures).toBe(0);
    const list = (await (await fetch(`${s.url}/diagnostic-measures`, { headers })).json()) as {
      id: string;
      test: string;
    }[];
    const loadIds = new Set(list.filter((m) => m.test === 'load').map((m) => m.id));
    expect(loadIds).toEqual(alive);
    for (const id of gone) expect(loadIds.has(id)).toBe(false);
    console.log(
      `load test: ${ops} operations on 200 connections in 30 s; ` +
        `RSS ${(early / 2 ** 20).toFixed(0)} MiB at 8 s, ${(late / 2 ** 20).toFixed(0)} MiB at the end`,
    );
    expect(late - early).toBeLessThan(64 * 2 ** 20);
    s.proc.kill('SIGTERM');
    expect((await s.proc).exitCode).toBe(0);
  }, 90_000);
});
