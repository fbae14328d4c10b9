// Covers: src/server/store/trim-oldest.ts src/server/store/store-options.ts
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Pool } from 'undici';
import { describe, expect, it } from 'vitest';
import { serveProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

describe('a history that stays bounded', () => {
  it('keeps at most --keep-notifications notifications, the newest, across 25,000 changes', async () => {
    const data = join(await tempDir(), 'data.json');
    const s = await serveProcess(['--seed', '--data', data, '--token', 't']);
    const seeded = JSON.parse(await readFile(data, 'utf8')).notifications.map((n: { id: string }) => n.id);
    s.proc.kill('SIGTERM');
    await s.proc;
    const served = await serveProcess(['--data', data, '--token', 't', '--keep-notifications', '1000']);
    // 50 connections, each sending its next change as soon as the last is answered. Not batches of 250 through
    // fetch: a socket answered early in a batch sat idle until the batch's last answer, and on a busy machine
    // (the server starved past its 5 s keep-alive) the server closed it as the client sent on it again:
    // 'other side closed', a lost race of HTTP keep-alive, not of the history.
    const pool = new Pool(served.url, { connections: 50 });
    let next = 0;
    const worker = async () => {
      for (let n = next++; n < 25_000; n = next++) {
        const r = await pool.request({
          path: '/insurance-coverages/cov_acme_cbc',
          method: 'PATCH',
          headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
          body: JSON.stringify({ amount: n % 97 }),
        });
        await r.body.text();
        expect(r.statusCode).toBe(200);
      }
    };
    try {
      await Promise.all(Array.from({ length: 50 }, worker));
    } finally {
      await pool.close();
    }
    served.proc.kill('SIGTERM');
    await served.proc;
    const file = JSON.parse(await readFile(data, 'utf8'));
    // 25,003 notifications made; the 1,000 newest kept, the seeded ones (the oldest) dropped.
    expect(file.notifications.length).toBe(1000);
    const ids = file.notifications.map((n: { id: string }) => n.id);
    for (const id of seeded) expect(ids).not.toContain(id);
    const times = file.notifications.map((n: { createdAt: number }) => n.createdAt);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(Math.max(...times) - 600_000);
  }, 120_000);
});
