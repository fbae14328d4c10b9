import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Pool } from 'undici';
import { describe, expect, it } from 'vitest';
import { serveProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

/** The slope of the least-squares line through the points (x, y). */
function leastSquaresSlope(x: number[], y: number[]): number {
  const n = x.length;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (x[i] - mx) * (y[i] - my);
    den += (x[i] - mx) ** 2;
  }
  return num / den;
}

describe('under load', () => {
  it('serves 200 connections of mixed reads and writes for 30 s, loses nothing and keeps memory flat', async () => {
    const dir = await tempDir();
    // Without events, so that the records on file stay as many as the test creates and deletes.
    // The heap capped, so V8 collects rather than lets it grow while there is room: what stays is what is held.
    const s = await serveProcess(['--seed', '--no-events', '--data', join(dir, 'd.json'), '--token', 't'], {
      env: { NODE_OPTIONS: '--max-old-space-size=96' },
    });
    const pool = new Pool(s.url, { connections: 200 });
    const headers = { authorization: 'Bearer t', 'content-type': 'application/json' };
    const rss = async () =>
      Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${s.proc.pid}/status`, 'utf8'))![1]) * 1024;
    const alive = new Set<string>();
    const gone = new Set<string>();
    let ops = 0;
    let failures = 0;
    const deadline = Date.now() + 30_000;
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
    // RSS every half second, against the operations done by then. The first half of the operations is the
    // warm-up (connections opened, code compiled, the heap grown to its working size), the second half must
    // hold flat: a leak shows as a slope however it is spread. Counted in operations, not seconds: on a busy
    // machine the same warm-up takes more of the 30 s (a slope of 1.48 MiB/s over seconds 15-30 at load 20).
    const samples: { ops: number; bytes: number }[] = [];
    const sampler = setInterval(() => {
      const at = ops;
      void rss().then((bytes) => samples.push({ ops: at, bytes }));
    }, 500);
    try {
      await Promise.all(Array.from({ length: 200 }, (_, w) => worker(w)));
      clearInterval(sampler);
      await pool.close();
      expect(failures).toBe(0);
      const list = (await (await fetch(`${s.url}/diagnostic-measures`, { headers })).json()) as {
        id: string;
        test: string;
      }[];
      const loadIds = new Set(list.filter((m) => m.test === 'load').map((m) => m.id));
      expect(loadIds).toEqual(alive);
      for (const id of gone) expect(loadIds.has(id)).toBe(false);
      const steady = samples.filter((x) => x.ops >= ops / 2);
      expect(steady.length).toBeGreaterThanOrEqual(20);
      const MiB = 2 ** 20;
      // Bytes kept an operation: the slope of RSS over the operations of the second half.
      const perOp = leastSquaresSlope(
        steady.map((x) => x.ops),
        steady.map((x) => x.bytes),
      );
      const low = Math.min(...steady.map((x) => x.bytes));
      const high = Math.max(...steady.map((x) => x.bytes));
      console.log(
        `load test: ${ops} operations on 200 connections in 30 s; after the warm-up RSS ` +
          `${(low / MiB).toFixed(0)}-${(high / MiB).toFixed(0)} MiB, trend ${perOp.toFixed(0)} bytes an operation`,
      );
      // Flat: under 350 bytes kept an operation (the 1 MiB/s this test allowed at ~3,000 operations a second),
      // and never more than 24 MiB above its lowest.
      expect(perOp).toBeLessThan(350);
      expect(high - low).toBeLessThan(24 * MiB);
      s.proc.kill('SIGTERM');
      expect((await s.proc).exitCode).toBe(0);
    } finally {
      clearInterval(sampler);
      await pool.close().catch(() => undefined);
      s.proc.kill('SIGKILL');
      await s.proc.catch(() => undefined);
    }
  }, 90_000);
});
