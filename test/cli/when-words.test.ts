// Covers: src/core/notifications.ts src/commands/notifications/list-run.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

// Issue 64: times as people say them. `08:00` is today at eight, local; `monday` the last Monday before
// today (as git's approxidate reads a weekday), all of it; ends given the wrong way round are refused.

const today = new Date();
const at = (daysBack: number, h: number, m: number) =>
  new Date(today.getFullYear(), today.getMonth(), today.getDate() - daysBack, h, m).getTime();
// Days back to the last Monday before today: 1 to 7.
const toMonday = ((today.getDay() - 1 + 6) % 7) + 1;
const NOTES = {
  ntf_before_monday: at(toMonday + 1, 12, 0),
  ntf_monday_noon: at(toMonday, 12, 0),
  ntf_today_0759: at(0, 7, 59),
  ntf_today_0801: at(0, 8, 1),
};

async function setup() {
  const dir = await tempDir();
  const dataFile = join(dir, 'data.json');
  const notifications = Object.entries(NOTES).map(([id, createdAt]) => ({
    id,
    createdAt,
    type: 'warehouse',
    code: 'stock-low',
    title: id,
    body: '',
    seenBy: [],
  }));
  await writeFile(dataFile, JSON.stringify({ notifications }));
  const server = await testServer({ dataFile });
  const env = cliEnv(server.url, dir);
  return async (...args: string[]) => {
    const r = await runCli(['notifications', 'list', ...args, '-o', 'json'], { env, cwd: dir });
    return { ...r, ids: r.code === 0 ? (JSON.parse(r.stdout) as { id: string }[]).map((n) => n.id).sort() : [] };
  };
}

describe('--since and --until in words', () => {
  it('counts from 08:00 today, from the last monday, and between the two', async () => {
    const list = await setup();
    expect((await list('--since', '08:00')).ids).toEqual(['ntf_today_0801']);
    expect((await list('--since', 'monday')).ids).toEqual(['ntf_monday_noon', 'ntf_today_0759', 'ntf_today_0801']);
    expect((await list('--since', 'Mon', '--until', '08:00')).ids).toEqual(['ntf_monday_noon', 'ntf_today_0759']);
    expect((await list('--until', 'monday')).ids).toEqual(['ntf_before_monday', 'ntf_monday_noon']);
  });

  it('refuses ends given the wrong way round (exit 2), where it gave an empty list and 0', async () => {
    const list = await setup();
    for (const [since, until] of [
      ['2d', '3d'],
      ['08:00', 'yesterday'],
      ['today', 'yesterday'],
    ]) {
      const r = await list('--since', since, '--until', until);
      expect(r.code, `${since} ${until}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: --since \(.+\) is not before --until \(.+\): no notification is in between\n/);
    }
  });

  it('refuses a time of day that is none (25:00), naming what it takes', async () => {
    const list = await setup();
    const r = await list('--since', '25:00');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('a time of day (08:00)');
  });
});
