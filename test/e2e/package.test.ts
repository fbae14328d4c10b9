import { execa } from 'execa';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the npm package', () => {
  it('packs into a tarball that installs globally and runs from any folder', async () => {
    const work = await tempDir();
    // --ignore-scripts: the suite already built dist/, and prepack's rebuild would pull it from under the other tests.
    await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--silent'], { cwd: root });
    const tarball = (await readdir(work)).find((f) => f.endsWith('.tgz'))!;
    expect(tarball).toMatch(/^clinadmin-\d+\.\d+\.\d+\.tgz$/);
    const prefix = join(work, 'prefix');
    await execa('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', join(work, tarball)], { cwd: work });
    const bin = join(prefix, 'bin', 'clinadmin');
    const elsewhere = await tempDir();
    const version = await execa(bin, ['--version'], { cwd: elsewhere, reject: false });
    expect(version.exitCode).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+$/);

    const serve = execa(bin, ['serve', '--port', '0', '--token', 'pkg'], { cwd: elsewhere, reject: false });
    const url = await new Promise<string>((resolve) => {
      let out = '';
      serve.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
    });
    const res = await fetch(`${url}/insurance-coverages`, { headers: { authorization: 'Bearer pkg' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
    serve.kill('SIGTERM');
    expect((await serve).exitCode).toBe(0);
    expect(await readdir(elsewhere)).toContain('clinadmin-data.json');
  }, 180_000);
});
