// Covers: src/config/update.ts src/lock/lock.ts
import { chmod, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clinadmin } from '../helpers/bin.js';
import { TOKEN, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

describe('the config store under concurrent writers', () => {
  it('keeps every profile when 10 logins with different profiles run at once', async () => {
    const server = await testServer();
    const dir = await tempDir();
    const env = { CLINADMIN_CONFIG_DIR: dir };
    const profiles = Array.from({ length: 10 }, (_, i) => `p${i}`);
    const runs = await Promise.all(
      profiles.map((p) =>
        clinadmin(['--profile', p, 'login', '--base-url', server.url, '--token-stdin'], { env, input: TOKEN }),
      ),
    );
    for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));
    expect(Object.keys(config.profiles).sort()).toEqual(profiles);
    for (const p of profiles) expect(config.profiles[p]).toMatchObject({ baseUrl: server.url, token: TOKEN });
    // No lock or temp file is left behind.
    expect((await readdir(dir)).sort()).toEqual(['config.json']);
  }, 60_000);

  it('warns when others can read the config file, and the next write makes it owner-only again', async () => {
    const server = await testServer({ seed: true });
    const dir = await tempDir();
    const file = join(dir, 'config.json');
    await writeFile(file, JSON.stringify({ profiles: { default: { baseUrl: server.url, token: TOKEN } } }));
    await chmod(file, 0o644);
    const env = { CLINADMIN_CONFIG_DIR: dir };
    const list = await clinadmin(['measures', 'list'], { env });
    expect(list.exitCode).toBe(0);
    expect(list.stderr).toMatch(/warning: the config file .*config\.json is readable by others \(mode 644\)/);
    expect(list.stderr).not.toContain(TOKEN);
    expect((await clinadmin(['config', 'set', 'account', 'acc_x'], { env })).exitCode).toBe(0);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await clinadmin(['measures', 'list'], { env })).stderr).toBe('');
  });
});
