// Covers: src/commands/notifications/watch-run.ts src/resources/time.ts
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clinadmin } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';
import { type Variant, variantServer } from '../helpers/variant.js';

// watch, as a process until Ctrl-C, against a server that answers as a real service may
// (test/helpers/variant.ts). Every other command against it runs in process: test/cli/real-service.test.ts.

let v: Variant;
let dir: string;
beforeEach(async () => {
  v = await variantServer();
  dir = await tempDir();
});
afterEach(async () => {
  await v.close();
});

describe('against a service that answers in its own shapes', () => {
  it('watches notifications whose createdAt is in seconds', async () => {
    const watch = clinadmin(['notifications', 'watch', '--interval', '0.2', '-o', 'ndjson', '-v'], {
      env: { ...v.env, CLINADMIN_CONFIG_DIR: join(dir, 'config') },
    });
    let out = '';
    let err = '';
    watch.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    watch.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    // The first answered poll says watch is ready; the new notification makes the list two pages long.
    await expect.poll(() => err, { timeout: 10_000 }).toMatch(/← 200 GET \S+\/notifications /);
    v.notifications.push({
      id: 'n3',
      code: 'fresh',
      type: 'system',
      title: 'Just now',
      body: '',
      createdAt: Math.floor(Date.now() / 1000),
    });
    await expect.poll(() => out, { timeout: 10_000 }).toContain('"title":"Just now"');
    expect(err).toMatch(/← 200 GET \S+\/notifications\?offset=2/);
    watch.kill('SIGINT');
    expect((await watch).exitCode).toBe(0);
    expect(out.trim().split('\n')).toHaveLength(1);
  });
});
