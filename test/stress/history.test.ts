import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
    const call = (path: string, body: unknown) =>
      fetch(served.url + path, {
        method: 'PATCH',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => expect(r.status).toBe(200));
    const batch = 250;
    for (let done = 0; done < 25_000; done += batch) {
      await Promise.all(
        Array.from({ length: batch }, (_, i) => call('/insurance-coverages/cov_acme_cbc', { amount: (done + i) % 97 })),
      );
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
