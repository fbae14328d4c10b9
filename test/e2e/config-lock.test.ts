import { readdir, readFile } from 'node:fs/promises';
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
});
