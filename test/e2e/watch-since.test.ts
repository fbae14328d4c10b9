// Covers: src/commands/notifications/watch-run.ts src/commands/notifications/poll.ts
// Covers: src/commands/notifications/watch.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

// Issue 64: `watch --since` replays what came from then on, oldest first, before it says it is watching;
// `--unseen` leaves out what your account has seen, as list's does.

const TOKEN = 'watch-since-token-0123';
const HOUR = 3_600_000;

describe('watch --since and --unseen', () => {
  it('replays the unseen ones from then on, oldest first, and then watches', async () => {
    const dir = await tempDir();
    const data = join(dir, 'data.json');
    const now = Date.now();
    const note = (id: string, hoursBack: number, seenBy: string[] = []) => ({
      id,
      createdAt: now - hoursBack * HOUR,
      type: 'warehouse',
      code: 'stock-low',
      title: `Title of ${id}`,
      body: '',
      seenBy,
    });
    const notifications = [
      note('ntf_three_days', 72),
      note('ntf_two_hours', 2),
      note('ntf_one_hour_seen', 1, ['acc_me']),
      note('ntf_half_hour', 0.5),
    ];
    await writeFile(data, JSON.stringify({ notifications }));
    const s = await serveProcess(['--data', data, '--token', `${TOKEN}:acc_me`]);
    const env = {
      CLINADMIN_BASE_URL: s.url,
      CLINADMIN_TOKEN: TOKEN,
      CLINADMIN_ACCOUNT: 'acc_me',
      CLINADMIN_CONFIG_DIR: join(dir, 'config'),
    };
    const proc = clinadmin(
      ['notifications', 'watch', '--since', '3h', '--unseen', '--interval', '0.2', '-o', 'table'],
      { env },
    );
    let out = '';
    let err = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    try {
      await expect.poll(() => err, { timeout: 20_000 }).toContain('watching for notifications');
      const ids = out
        .trimEnd()
        .split('\n')
        .map((l) => /\((ntf_\w+)\)$/.exec(l)?.[1]);
      expect(ids).toEqual(['ntf_two_hours', 'ntf_half_hour']);
    } finally {
      proc.kill('SIGINT');
      expect((await proc).exitCode).toBe(0);
      s.proc.kill('SIGTERM');
      await s.proc;
    }
  }, 60_000);

  it('without --since prints nothing that was there before; --unseen needs an account', async () => {
    const r = await clinadmin(['notifications', 'watch', '--unseen'], {
      env: { CLINADMIN_BASE_URL: 'http://127.0.0.1:9', CLINADMIN_TOKEN: TOKEN, CLINADMIN_CONFIG_DIR: await tempDir() },
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--unseen needs to know your account');
  });
});
