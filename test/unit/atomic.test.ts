// Covers: src/files/atomic.ts
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/files/atomic.js';
import { tempDir } from '../helpers/tmp.js';

describe('writeFileAtomic', () => {
  it('writes a new file whole, with the mode asked for, and leaves no temp file', async () => {
    const dir = await tempDir('clinadmin-atomic-');
    const path = join(dir, 'report.json');
    await writeFileAtomic(path, '{"new":true}\n', 0o600);
    expect(await readFile(path, 'utf8')).toBe('{"new":true}\n');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['report.json']);
  });

  it('replaces a file whole and keeps the mode it had, whatever mode a new one would get', async () => {
    const dir = await tempDir('clinadmin-atomic-');
    for (const had of [0o600, 0o640, 0o644]) {
      const path = join(dir, `report-${had.toString(8)}.json`);
      await writeFile(path, 'old', { mode: had });
      await chmod(path, had);
      await writeFileAtomic(path, '{"new":true}\n');
      expect(await readFile(path, 'utf8')).toBe('{"new":true}\n');
      expect((await stat(path)).mode & 0o777).toBe(had);
    }
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('leaves the old file and no temp file when the rename fails', async () => {
    const dir = await tempDir('clinadmin-atomic-');
    // A folder where the file should go: the rename over it fails.
    const path = join(dir, 'taken');
    await mkdir(path);
    await writeFile(join(path, 'inside'), 'kept');
    await expect(writeFileAtomic(path, 'x')).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['taken']);
    expect(await readFile(join(path, 'inside'), 'utf8')).toBe('kept');
  });
});
