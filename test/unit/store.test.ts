import { open as fsOpen, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store, type StoreFs } from '../../src/server/store.js';
import { tempDir } from '../helpers/tmp.js';

const measure = (id: string, name = id) => ({ id, createdAt: 1, createdBy: 'a', test: 't', name });

async function open(file: string, warnings: string[] = [], compactEvery?: number) {
  return Store.open({ file, warn: (m) => warnings.push(m), compactEvery });
}

describe('Store', () => {
  it('creates a missing data file with every collection', async () => {
    const file = join(await tempDir(), 'data.json');
    const store = await open(file);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      diagnosticMeasures: [],
      insuranceCoverages: [],
      notifications: [],
      contracts: [],
    });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await store.close();
  });

  it('keeps acknowledged writes in the journal, readable without a clean close', async () => {
    const file = join(await tempDir(), 'data.json');
    const store = await open(file);
    await store.commit([{ coll: 'diagnosticMeasures', id: 'm1', after: measure('m1') }]);
    await store.commit([{ coll: 'diagnosticMeasures', id: 'm2', after: measure('m2') }]);
    await store.commit([{ coll: 'diagnosticMeasures', id: 'm1', after: undefined }]);
    // No close: as after kill -9, the journal holds the changes.
    const journal = await readFile(`${file}.journal`, 'utf8');
    expect(journal.trim().split('\n')).toHaveLength(3);
    (store as unknown as { releaseLock: () => Promise<void> }).releaseLock = async () => undefined;
    await import('node:fs/promises').then((fs) => fs.unlink(`${file}.lock`));
    const again = await open(file);
    expect(again.list('diagnosticMeasures').map((r) => r.id)).toEqual(['m2']);
    // Start-up folds the journal into the data file.
    expect(JSON.parse(await readFile(file, 'utf8')).diagnosticMeasures).toEqual([measure('m2')]);
    await again.close();
    // What the process's death would have done to the abandoned store's descriptor.
    await (store as unknown as { journal: { close: () => Promise<void> } }).journal.close();
  });

  it('shares one flush among writes of the same tick', async () => {
    const file = join(await tempDir(), 'data.json');
    const store = await open(file);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        store.commit([{ coll: 'diagnosticMeasures', id: `m${i}`, after: measure(`m${i}`) }]),
      ),
    );
    expect(store.count('diagnosticMeasures')).toBe(50);
    await store.close();
    expect(JSON.parse(await readFile(file, 'utf8')).diagnosticMeasures).toHaveLength(50);
  });

  it('compacts the journal into the data file after enough changes', async () => {
    const file = join(await tempDir(), 'data.json');
    const store = await open(file, [], 10);
    for (let i = 0; i < 12; i++)
      await store.commit([{ coll: 'diagnosticMeasures', id: `m${i}`, after: measure(`m${i}`) }]);
    expect(JSON.parse(await readFile(file, 'utf8')).diagnosticMeasures.length).toBeGreaterThanOrEqual(10);
    expect((await readFile(`${file}.journal`, 'utf8')).trim().split('\n').length).toBeLessThan(10);
    await store.close();
  });

  it('waits to fold a large data file until the journal is as large: a write costs the same at any size', async () => {
    const file = join(await tempDir(), 'data.json');
    await writeFile(
      file,
      JSON.stringify({ diagnosticMeasures: Array.from({ length: 300 }, (_, i) => measure(`old${i}`)) }),
    );
    const store = await open(file, [], 10);
    const fileSize = (await stat(file)).size;
    const journal = `${file}.journal`;
    // Journal size after each commit; folding empties it (just after the commit that triggered it).
    const sizes: number[] = [];
    for (let i = 0; i < 2000 && !(sizes.length > 1 && sizes.at(-1)! < sizes.at(-2)!); i++) {
      await store.commit([{ coll: 'diagnosticMeasures', id: `new${i}`, after: measure(`new${i}`) }]);
      sizes.push((await stat(journal)).size);
    }
    const drop = sizes.findIndex((s, i) => i > 0 && s < sizes[i - 1]);
    expect(drop, 'the journal was folded').toBeGreaterThan(10);
    expect(sizes[drop - 1]).toBeGreaterThanOrEqual(fileSize);
    expect(sizes[drop - 2]).toBeLessThan(fileSize);
    const ids = JSON.parse(await readFile(file, 'utf8')).diagnosticMeasures.map((m: { id: string }) => m.id);
    expect(ids).toHaveLength(300 + drop);
    await store.close();
    expect(JSON.parse(await readFile(file, 'utf8')).diagnosticMeasures).toHaveLength(300 + drop + 1);
  });

  it('drops a torn last journal line with a warning', async () => {
    const file = join(await tempDir(), 'data.json');
    await writeFile(file, '{}');
    await writeFile(
      `${file}.journal`,
      `${JSON.stringify({ c: 'diagnosticMeasures', id: 'm1', v: measure('m1') })}\n{"c":"diagnosticMeas`,
    );
    const warnings: string[] = [];
    const store = await open(file, warnings);
    expect(store.list('diagnosticMeasures').map((r) => r.id)).toEqual(['m1']);
    expect(warnings.join()).toMatch(/torn last line/);
    await store.close();
  });

  it('refuses to start on damage before the last journal line, leaving both files alone', async () => {
    const file = join(await tempDir(), 'data.json');
    await writeFile(file, '{}');
    const journal = `garbage\n${JSON.stringify({ c: 'diagnosticMeasures', id: 'm1', v: measure('m1') })}\n`;
    await writeFile(`${file}.journal`, journal);
    await expect(open(file)).rejects.toThrow(/journal line 1 is damaged/);
    expect(await readFile(`${file}.journal`, 'utf8')).toBe(journal);
    expect(await readFile(file, 'utf8')).toBe('{}');
  });

  it('refuses a data file that does not parse, naming line and column, and never overwrites it', async () => {
    const file = join(await tempDir(), 'data.json');
    const text = '{\n  "diagnosticMeasures": [,]\n}';
    await writeFile(file, text);
    await expect(open(file)).rejects.toThrow(/data\.json is not valid JSON \(line 2, column 26/);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('refuses a data file whose records break the schema, naming the record and field', async () => {
    const file = join(await tempDir(), 'data.json');
    await writeFile(
      file,
      JSON.stringify({
        diagnosticMeasures: [measure('m1'), { ...measure('m2'), referenceRanges: [{ id: 'r', min: 3, max: 1 }] }],
      }),
    );
    await expect(open(file)).rejects.toThrow(
      /diagnosticMeasures\[1\]\.referenceRanges\[0\]\.max: min \(3\) must not be greater than max \(1\)/,
    );
  });

  it('refuses duplicate ids in the data file', async () => {
    const file = join(await tempDir(), 'data.json');
    await writeFile(file, JSON.stringify({ diagnosticMeasures: [measure('m1'), measure('m1')] }));
    await expect(open(file)).rejects.toThrow(/diagnosticMeasures\[1\]\.id: duplicate id m1/);
  });

  it('lets only one store hold a data file, and takes over a lock whose process is gone', async () => {
    const file = join(await tempDir(), 'data.json');
    const store = await open(file);
    await expect(open(file)).rejects.toThrow(
      new RegExp(`in use by another clinadmin serve \\(process ${process.pid}\\)`),
    );
    await store.close();
    await writeFile(`${file}.lock`, '999999999\n');
    const again = await open(file);
    await again.close();
  });

  it('undoes a write whose flush fails and acknowledges nothing of it', async () => {
    const file = join(await tempDir(), 'data.json');
    const warnings: string[] = [];
    const store = await open(file, warnings);
    await store.commit([{ coll: 'diagnosticMeasures', id: 'm1', after: measure('m1', 'before') }]);
    const journal = (store as unknown as { journal: { datasync: () => Promise<void> } }).journal;
    const real = journal.datasync.bind(journal);
    journal.datasync = async () => {
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    };
    await expect(
      store.commit([{ coll: 'diagnosticMeasures', id: 'm1', after: measure('m1', 'after') }]),
    ).rejects.toThrow(/the disk is full/);
    expect(store.get('diagnosticMeasures', 'm1')?.name).toBe('before');
    journal.datasync = real;
    await store.commit([{ coll: 'diagnosticMeasures', id: 'm2', after: measure('m2') }]);
    await store.close();
    const saved = JSON.parse(await readFile(file, 'utf8')).diagnosticMeasures;
    expect(saved.map((r: { name: string }) => r.name)).toEqual(['before', 'm2']);
  });

  it('tells which records have changes not yet on disk, and settles once they are', async () => {
    const file = join(await tempDir(), 'data.json');
    const store = await open(file);
    const write = store.commit([{ coll: 'diagnosticMeasures', id: 'm1', after: measure('m1') }]);
    expect(store.isPending('diagnosticMeasures', 'm1')).toBe(true);
    expect(store.isPending('diagnosticMeasures')).toBe(true);
    expect(store.isPending('insuranceCoverages')).toBe(false);
    await store.settle();
    expect(store.isPending('diagnosticMeasures', 'm1')).toBe(false);
    await write;
    expect((await readFile(`${file}.journal`, 'utf8')).trim().split('\n')).toHaveLength(1);
    await store.close();
  });

  it('skips the folder fsync only where the platform refuses it (as Windows does), and still saves', async () => {
    const file = join(await tempDir(), 'data.json');
    /** The real file system, except that the data file's folder refuses to be opened or synced with `code`. */
    const refusing = (code: string, at: 'open' | 'sync'): StoreFs => ({
      rename,
      open: (async (path: string, flags?: string, mode?: number) => {
        const refusal = Object.assign(new Error(`${code}: operation refused on a folder`), { code });
        if (path === dirname(file) && at === 'open') throw refusal;
        const fh = await fsOpen(path, flags, mode);
        if (path === dirname(file)) {
          fh.sync = async () => {
            throw refusal;
          };
        }
        return fh;
      }) as StoreFs['open'],
    });
    const cases = [
      ['EISDIR', 'open'],
      ['EPERM', 'sync'],
      ['EINVAL', 'sync'],
    ] as const;
    for (const [code, at] of cases) {
      const store = await Store.open({ file, fs: refusing(code, at) });
      await store.commit([{ coll: 'diagnosticMeasures', id: code, after: measure(code) }]);
      await store.close();
      const saved = JSON.parse(await readFile(file, 'utf8')).diagnosticMeasures.map((m: { id: string }) => m.id);
      expect(saved, code).toContain(code);
    }
    // Any other failure is a real one: the fold fails and says why, and the journal keeps the change.
    const failing = await Store.open({ file, fs: refusing('EIO', 'sync') });
    await failing.commit([{ coll: 'diagnosticMeasures', id: 'kept', after: measure('kept') }]);
    await expect(failing.close()).rejects.toThrow('EIO');
    const again = await open(file);
    expect(again.get('diagnosticMeasures', 'kept')).toEqual(measure('kept'));
    await again.close();
  });
});
