import { mkdir, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/files/atomic.js';

describe('writeFileAtomic', () => {
  it('replaces a file whole, with the mode asked for, and leaves no temp file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clinadmin-atomic-'));
    const path = join(dir, 'report.json');
    await writeFile(path, 'old');
    await writeFileAtomic(path, '{"new":true}\n', 0o600);
    expect(await readFile(path, 'utf8')).toBe('{"new":true}\n');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['report.json']);
  });

  it('leaves the old file and no temp file when the rename fails', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clinadmin-atomic-'));
    // A folder where the file should go: the rename over it fails.
    const path = join(dir, 'taken');
    await mkdir(path);
    await writeFile(join(path, 'inside'), 'kept');
    await expect(writeFileAtomic(path, 'x')).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['taken']);
    expect(await readFile(join(path, 'inside'), 'utf8')).toBe('kept');
  });
});
