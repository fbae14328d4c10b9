// Covers: src/server/store/
import { copyFile, open as fsOpen, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatAgeBand } from '../../src/core/ages.js';
import { legacyYears } from '../../src/schemas/ages-legacy.js';
import { dataFileSlices, serializeDataFile } from '../../src/server/store/data-file.js';
import { journalLine } from '../../src/server/store/journal.js';
import { Store, type StoreFs } from '../../src/server/store/store.js';
import { tempDir } from '../helpers/tmp.js';

const measure = (id: string, name = id) => ({ id, createdAt: 1, createdBy: 'a', test: 't', name });

/**
 * What a kill -9 leaves on disk, taken while the store runs: the data file and the journal as they are,
 * copied to a folder of their own, where a fresh store can open them (the running one keeps its lock).
 */
async function crashCopy(file: string): Promise<string> {
  const copy = join(await tempDir(), 'data.json');
  await copyFile(file, copy).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
  await copyFile(`${file}.journal`, `${copy}.journal`);
  // A write that failed and could not be cut back has marked where the journal's acknowledged content ends.
  await copyFile(`${file}.journal.cut`, `${copy}.journal.cut`).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
  // A fold in progress has set the journal it folds aside.
  await copyFile(`${file}.journal.old`, `${copy}.journal.old`).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
  return copy;
}

/** A data file of n measures `old0`…, in a folder of its own. */
async function fileOf(n: number): Promise<string> {
  const file = join(await tempDir(), 'data.json');
  await writeFile(
    file,
    JSON.stringify({ formatVersion: 2, diagnosticMeasures: Array.from({ length: n }, (_, i) => measure(`old${i}`)) }),
  );
  return file;
}

/** A step of the store's file system that waits until the test lets it go on. */
function gate(): { held: Promise<void>; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  return { held, release };
}

async function open(file: string, warnings: string[] = [], foldEvery?: number) {
  return Store.open({ file, warn: (m) => warnings.push(m), foldEvery });
}

describe('Store', () => {
  it('creates a missing data file with every collection', async () => {
    const file = join(await tempDir(), 'data.json');
    const store = await open(file);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      formatVersion: 2,
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
    const crashed = await crashCopy(file);
    const again = await open(crashed);
    expect(again.list('diagnosticMeasures').map((r) => r.id)).toEqual(['m2']);
    // Start-up folds the journal into the data file.
    expect(JSON.parse(await readFile(crashed, 'utf8')).diagnosticMeasures).toEqual([measure('m2')]);
    await again.close();
    await store.close();
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

  it('folds the journal into the data file after enough changes', async () => {
    const file = join(await tempDir(), 'data.json');
    const store = await open(file, [], 10);
    for (let i = 0; i < 12; i++)
      await store.commit([{ coll: 'diagnosticMeasures', id: `m${i}`, after: measure(`m${i}`) }]);
    await store.folded();
    expect(JSON.parse(await readFile(file, 'utf8')).diagnosticMeasures.length).toBeGreaterThanOrEqual(10);
    expect((await readFile(`${file}.journal`, 'utf8')).trim().split('\n').length).toBeLessThan(10);
    await store.close();
  });

  it('waits to fold a large data file until the journal is as large: a write costs the same at any size', async () => {
    const file = join(await tempDir(), 'data.json');
    await writeFile(
      file,
      JSON.stringify({
        formatVersion: 2,
        diagnosticMeasures: Array.from({ length: 300 }, (_, i) => measure(`old${i}`)),
      }),
    );
    const store = await open(file, [], 10);
    const fileSize = (await stat(file)).size;
    const journal = `${file}.journal`;
    // Journal size after each commit. The commit whose line brings the journal to the file's size sets
    // the journal aside before it is acknowledged, so after it the journal is fresh (empty).
    const sizes: number[] = [];
    for (let i = 0; i < 2000 && !(sizes.length > 1 && sizes.at(-1)! < sizes.at(-2)!); i++) {
      await store.commit([{ coll: 'diagnosticMeasures', id: `new${i}`, after: measure(`new${i}`) }]);
      sizes.push((await stat(journal)).size);
    }
    const drop = sizes.findIndex((s, i) => i > 0 && s < sizes[i - 1]);
    const line = sizes[1] - sizes[0];
    expect(drop, 'the journal was folded').toBeGreaterThan(10);
    expect(sizes[drop]).toBe(0);
    expect(sizes[drop - 1]).toBeLessThan(fileSize);
    expect(sizes[drop - 1] + line).toBeGreaterThanOrEqual(fileSize);
    await store.folded();
    // The fold holds every commit up to and with the one that set the journal aside.
    const ids = JSON.parse(await readFile(file, 'utf8')).diagnosticMeasures.map((m: { id: string }) => m.id);
    expect(ids).toHaveLength(300 + drop + 1);
    await store.close();
    expect(JSON.parse(await readFile(file, 'utf8')).diagnosticMeasures).toHaveLength(300 + drop + 1);
  });

  it('folds in the background: writes acknowledged while the fold writes, and a kill -9 then loses none', async () => {
    const file = await fileOf(50);
    // The fold's temp file is renamed over the data file only once the test lets it.
    const { held, release } = gate();
    let folding = false;
    const fs: StoreFs = {
      open: fsOpen,
      rename: (async (from: string, to: string) => {
        if (from.endsWith('.tmp')) {
          folding = true;
          await held;
        }
        return rename(from, to);
      }) as StoreFs['rename'],
    };
    const store = await Store.open({ file, fs, foldEvery: 5 });
    let i = 0;
    while (!folding) await store.commit([{ coll: 'diagnosticMeasures', id: `a${i}`, after: measure(`a${i++}`) }]);
    // The fold is held at its last step; writes still go through, to the fresh journal.
    for (let k = 0; k < 3; k++)
      await store.commit([{ coll: 'diagnosticMeasures', id: `b${k}`, after: measure(`b${k}`) }]);
    const setAside = (await readFile(`${file}.journal.old`, 'utf8')).trim().split('\n');
    expect(setAside[0]).toContain('"id":"a0"');
    const crashed = await crashCopy(file);
    const again = await open(crashed);
    const ids = again.list('diagnosticMeasures').map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining(['old0', 'a0', `a${i - 1}`, 'b0', 'b2']));
    expect(ids).toHaveLength(50 + i + 3);
    await again.close();
    release();
    await store.folded();
    // Folded: the data file holds what was set aside, the old journal is gone, the journal the rest.
    const saved = JSON.parse(await readFile(file, 'utf8')).diagnosticMeasures.map((m: { id: string }) => m.id);
    expect(saved).toHaveLength(50 + setAside.length);
    const rest = (await readFile(`${file}.journal`, 'utf8')).trim().split('\n');
    expect(setAside.length + rest.length).toBe(i + 3);
    await expect(stat(`${file}.journal.old`)).rejects.toThrow('ENOENT');
    await store.close();
  });

  it('keeps acknowledging writes through the journal when a fold cannot write the data folder', async () => {
    const file = await fileOf(5);
    const warnings: string[] = [];
    // The folder refuses new files, as a read-only mount does: the fold's temp file cannot be made.
    let refused = 0;
    const fs: StoreFs = {
      open: (async (path: string, flags: string, mode?: number) => {
        if (path.endsWith('.tmp')) {
          refused++;
          throw Object.assign(new Error('EROFS: read-only file system, open'), { code: 'EROFS' });
        }
        return fsOpen(path, flags, mode);
      }) as StoreFs['open'],
      rename,
    };
    const store = await Store.open({ file, fs, foldEvery: 2, warn: (m) => warnings.push(m) });
    for (let i = 0; i < 20; i++) {
      await store.commit([{ coll: 'diagnosticMeasures', id: `n${i}`, after: measure(`n${i}`) }]);
      await store.folded();
    }
    expect(refused).toBeGreaterThan(0);
    expect(warnings.join('\n')).toMatch(
      /could not fold the journal .*the folder is not writable.*it keeps every change/,
    );
    await expect(store.close()).rejects.toThrow(/every acknowledged change is kept in .*\.journal/);
    const again = await open(file);
    expect(again.list('diagnosticMeasures')).toHaveLength(5 + 20);
    await again.close();
  });

  it('folds only what was flushed when the journal was set aside: writes queued then are taken back', async () => {
    const file = await fileOf(50);
    // The fresh journal is opened first when the journal is set aside: hold that step while writes queue.
    const { held, release } = gate();
    let settingAside = false;
    const fs: StoreFs = {
      open: (async (path: string, flags: string, mode?: number) => {
        if (path.endsWith('.journal.next')) {
          settingAside = true;
          await held;
        }
        return fsOpen(path, flags, mode);
      }) as StoreFs['open'],
      rename,
    };
    const store = await Store.open({ file, fs, foldEvery: 5 });
    let i = 0;
    const flushed: Promise<void>[] = [];
    while (!settingAside) {
      flushed.push(store.commit([{ coll: 'diagnosticMeasures', id: `a${i}`, after: measure(`a${i++}`) }]));
      await new Promise((r) => setImmediate(r));
    }
    // Queued while the journal is set aside: a create, a change and a deletion of records the file holds.
    const queued = [
      store.commit([{ coll: 'diagnosticMeasures', id: 'q1', after: measure('q1') }]),
      store.commit([{ coll: 'diagnosticMeasures', id: 'old1', after: measure('old1', 'changed') }]),
      store.commit([{ coll: 'diagnosticMeasures', id: 'old2', after: undefined }]),
    ];
    release();
    await Promise.all([...flushed, ...queued]);
    await store.folded();
    const saved = JSON.parse(await readFile(file, 'utf8')).diagnosticMeasures as { id: string; name: string }[];
    expect(saved.map((m) => m.id)).not.toContain('q1');
    expect(saved.find((m) => m.id === 'old1')?.name).toBe('old1');
    expect(saved.map((m) => m.id)).toContain('old2');
    expect(saved.map((m) => m.id)).toContain('a0');
    // The journal holds them, so the store as reopened has every acknowledged write.
    await store.close();
    const again = await open(file);
    const now = again.list('diagnosticMeasures');
    expect(now.map((r) => r.id)).toContain('q1');
    expect(now.find((r) => r.id === 'old1')?.name).toBe('changed');
    expect(now.map((r) => r.id)).not.toContain('old2');
    expect(now).toHaveLength(50 + i);
    await again.close();
  });

  it('moves a data file without formatVersion to format 2 once, ages kept as the old form meant them', async () => {
    const file = join(await tempDir(), 'data.json');
    // Format 1 stored a band's last completed unit, the unit in the last bit of the double: 12 mo was
    // 1.0000000000000002, 24 h one step above 1/365.25 (schemas/ages-legacy.ts writes those numbers).
    const banded = (id: string, lo: number, hi: number) => ({
      ...measure(id),
      referenceRanges: [{ id: `rr_${id}`, min: 1, max: 2, sex: 'all', ageMin: lo, ageMax: hi }],
    });
    const old = [banded('m1', legacyYears(8, 'd'), legacyYears(12, 'mo')), banded('m2', 0, legacyYears(28, 'd'))];
    await writeFile(file, JSON.stringify({ diagnosticMeasures: old }));
    const m3 = banded('m3', legacyYears(24, 'h'), legacyYears(7, 'd'));
    await writeFile(`${file}.journal`, `${journalLine({ coll: 'diagnosticMeasures', id: 'm3', after: m3 })}\n`);
    const warnings: string[] = [];
    const store = await open(file, warnings);
    const bands = () =>
      store.list('diagnosticMeasures').map((m) => {
        const r = (m as unknown as { referenceRanges: { ageMin: number; ageMax: number }[] }).referenceRanges[0];
        return [m.id, formatAgeBand(r.ageMin, r.ageMax), r.ageMin, r.ageMax];
      });
    // The lab's bands as they were written: [8 d, 13 mo), [0, 29 d), [24 h, 8 d) in exact years.
    const want = [
      ['m1', '8 d–12 mo', 8 / 365.25, 13 / 12],
      ['m2', '0–28 d', 0, 29 / 365.25],
      ['m3', '1–7 d', 1 / 365.25, 8 / 365.25],
    ];
    expect(bands()).toEqual(want);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/data\.json has no formatVersion \(format 1\): converting it to format 2, /);
    expect(warnings[0]).toMatch(/\(3 measures with age bands\); this is done once$/);
    await store.close();
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved.formatVersion).toBe(2);
    // Once: a second start reads format 2 as it is, with no line and no second conversion.
    const again: string[] = [];
    const reopened = await open(file, again);
    expect(again).toEqual([]);
    expect(reopened.list('diagnosticMeasures').map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);
    await reopened.close();
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(saved);
  });

  it('refuses a data file of a format it does not know, and leaves it as it is', async () => {
    const file = join(await tempDir(), 'data.json');
    await writeFile(file, '{"formatVersion": 3}');
    await expect(open(file)).rejects.toThrow(
      'data.json: formatVersion 3 is not one this clinadmin reads (it writes 2)',
    );
    expect(await readFile(file, 'utf8')).toBe('{"formatVersion": 3}');
  });

  it('leaves the data file as it is at a stop when nothing was written, and folds it when something was', async () => {
    const file = join(await tempDir(), 'data.json');
    // Hand-written, not as the store writes it: a rewrite would show.
    const text = `${JSON.stringify({ formatVersion: 2, diagnosticMeasures: [measure('m1')] }, null, 4)}\n`;
    await writeFile(file, text);
    const before = await stat(file);
    const idle = await open(file);
    expect(idle.list('diagnosticMeasures')).toHaveLength(1);
    await idle.close();
    expect(await readFile(file, 'utf8')).toBe(text);
    expect((await stat(file)).ino).toBe(before.ino);
    const busy = await open(file);
    await busy.commit([{ coll: 'diagnosticMeasures', id: 'm2', after: measure('m2') }]);
    await busy.close();
    const saved = await readFile(file, 'utf8');
    expect(saved).not.toBe(text);
    expect(JSON.parse(saved).diagnosticMeasures.map((m: { id: string }) => m.id)).toEqual(['m1', 'm2']);
    await expect(stat(`${file}.journal`)).rejects.toThrow('ENOENT');
  });

  it('recovers from every moment of a fold: each journal replays onto the file, once or twice alike', async () => {
    const dir = await tempDir();
    const file = join(dir, 'data.json');
    const line = (id: string, v: unknown) => `${JSON.stringify({ c: 'diagnosticMeasures', id, v })}\n`;
    // The data file already holds the old journal's changes (the fold renamed it in, then died).
    await writeFile(file, JSON.stringify({ diagnosticMeasures: [measure('m1', 'two'), measure('m3')] }));
    await writeFile(
      `${file}.journal.old`,
      line('m1', measure('m1', 'one')) +
        line('m2', measure('m2')) +
        line('m2', null) +
        line('m1', measure('m1', 'two')),
    );
    await writeFile(`${file}.journal`, line('m1', measure('m1', 'three')) + line('m4', measure('m4')));
    // An empty journal made for the swap, left by a crash before the rename.
    await writeFile(`${file}.journal.next`, '');
    const store = await open(file);
    expect(store.list('diagnosticMeasures').map((r) => [r.id, r.name])).toEqual([
      ['m1', 'three'],
      ['m3', 'm3'],
      ['m4', 'm4'],
    ]);
    for (const left of ['journal.old', 'journal.next']) await expect(stat(`${file}.${left}`)).rejects.toThrow('ENOENT');
    await store.close();
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
    let failSync = false;
    // The real file system, except that the journal's fdatasync fails while failSync is set.
    const fs: StoreFs = {
      rename,
      open: (async (path: string, flags?: string, mode?: number) => {
        const fh = await fsOpen(path, flags, mode);
        if (!path.endsWith('.journal')) return fh;
        const datasync = fh.datasync.bind(fh);
        fh.datasync = async () => {
          if (failSync) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
          return datasync();
        };
        return fh;
      }) as StoreFs['open'],
    };
    const store = await Store.open({ file, fs, warn: () => undefined });
    await store.commit([{ coll: 'diagnosticMeasures', id: 'm1', after: measure('m1', 'before') }]);
    failSync = true;
    await expect(
      store.commit([{ coll: 'diagnosticMeasures', id: 'm1', after: measure('m1', 'after') }]),
    ).rejects.toThrow(/the disk is full/);
    expect(store.get('diagnosticMeasures', 'm1')?.name).toBe('before');
    failSync = false;
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

  it('acknowledges only whole journal writes: a short write fails and is cut back, never padded', async () => {
    const file = join(await tempDir(), 'data.json');
    let shortWrites = 0;
    // The real file system, except that the journal's next `shortWrites` writes stop halfway, as on a full disk.
    const fs: StoreFs = {
      rename,
      open: (async (path: string, flags?: string, mode?: number) => {
        const fh = await fsOpen(path, flags, mode);
        if (!path.endsWith('.journal')) return fh;
        const write = fh.write.bind(fh) as (b: Buffer) => Promise<{ bytesWritten: number; buffer: Buffer }>;
        Object.assign(fh, {
          write: (buf: Buffer) => (shortWrites-- > 0 ? write(buf.subarray(0, buf.length >> 1)) : write(buf)),
        });
        return fh;
      }) as StoreFs['open'],
    };
    const warnings: string[] = [];
    const store = await Store.open({ file, fs, warn: (m) => warnings.push(m) });
    await store.commit([{ coll: 'diagnosticMeasures', id: 'ok1', after: measure('ok1') }]);
    const good = (await stat(`${file}.journal`)).size;
    shortWrites = 1;
    await expect(store.commit([{ coll: 'diagnosticMeasures', id: 'lost', after: measure('lost') }])).rejects.toThrow(
      /could not be saved.*the disk is full/,
    );
    expect(store.get('diagnosticMeasures', 'lost')).toBeUndefined();
    // Cut back to the last whole line: no half line, no padding.
    const journal = await readFile(`${file}.journal`);
    expect(journal.length).toBe(good);
    expect(journal.includes(0)).toBe(false);
    await store.commit([{ coll: 'diagnosticMeasures', id: 'ok2', after: measure('ok2') }]);
    // As after kill -9: the journal alone must give back exactly what was acknowledged.
    const replayed = await readFile(`${file}.journal`, 'utf8');
    expect(
      replayed
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).id),
    ).toEqual(['ok1', 'ok2']);
    await store.close();
    const ids = JSON.parse(await readFile(file, 'utf8')).diagnosticMeasures.map((m: { id: string }) => m.id);
    expect(ids).toEqual(['ok1', 'ok2']);
  });

  it('never brings back a change answered 503 whose cut-back also failed, even written whole', async () => {
    const file = join(await tempDir(), 'data.json');
    let failing = false;
    // The real file system, except that once `failing` is set the journal's write goes through whole but its
    // sync fails (EIO), and cutting it back fails too: the refused change sits in the journal, complete.
    const eio = () => Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
    const fs: StoreFs = {
      rename,
      open: (async (path: string, flags?: string, mode?: number) => {
        const fh = await fsOpen(path, flags, mode);
        if (!path.endsWith('.journal')) return fh;
        const datasync = fh.datasync.bind(fh);
        const truncate = fh.truncate.bind(fh);
        Object.assign(fh, {
          datasync: () => (failing ? Promise.reject(eio()) : datasync()),
          truncate: (len?: number) => (failing ? Promise.reject(eio()) : truncate(len)),
        });
        return fh;
      }) as StoreFs['open'],
    };
    const warnings: string[] = [];
    const store = await Store.open({ file, fs, warn: (m) => warnings.push(m) });
    await store.commit([{ coll: 'diagnosticMeasures', id: 'ok1', after: measure('ok1') }]);
    failing = true;
    await expect(store.commit([{ coll: 'diagnosticMeasures', id: 'lost', after: measure('lost') }])).rejects.toThrow(
      /could not be saved/,
    );
    // The refused change is in the journal, whole: what a restart would replay without the mark.
    expect(await readFile(`${file}.journal`, 'utf8')).toContain('"id":"lost"');
    expect(warnings.join('\n')).toMatch(/could not be cut back .*restart the server to recover/);
    // As after kill -9: the next start has the acknowledged change and not the refused one.
    const seen: string[] = [];
    const again = await open(await crashCopy(file), seen);
    expect(again.list('diagnosticMeasures').map((r) => r.id)).toEqual(['ok1']);
    expect(seen.join('\n')).toMatch(/dropped what .* holds past byte \d+: changes answered 503/);
    // The mark is blank again: what this run acknowledges survives the next start.
    await again.commit([{ coll: 'diagnosticMeasures', id: 'ok2', after: measure('ok2') }]);
    const third = await open(await crashCopy(again.file));
    expect(third.list('diagnosticMeasures').map((r) => r.id)).toEqual(['ok1', 'ok2']);
    await third.close();
    await again.close();
    failing = false;
    await store.close().catch(() => undefined);
  });

  it('replays a reset line as the whole state, and drops a reset cut off mid-line: old state or new', async () => {
    const file = join(await tempDir(), 'data.json');
    const store = await open(file);
    await store.commit([{ coll: 'diagnosticMeasures', id: 'before', after: measure('before') }]);
    const empty = { diagnosticMeasures: [], insuranceCoverages: [], notifications: [], contracts: [] };
    await store.reset({ ...empty, diagnosticMeasures: [measure('snap')] });
    // As after kill -9 right after the reset was answered: the journal alone gives the snapshot's state.
    const whole = await open(await crashCopy(file));
    expect(whole.list('diagnosticMeasures').map((r) => r.id)).toEqual(['snap']);
    await whole.close();
    // The reset line cut off before its end (a crash while writing it): the state before, whole.
    const dir = await tempDir();
    const data = join(dir, 'data.json');
    await writeFile(data, JSON.stringify({ ...empty, diagnosticMeasures: [measure('before')] }));
    const line = JSON.stringify({ reset: { ...empty, diagnosticMeasures: [measure('snap')] } });
    await writeFile(`${data}.journal`, line.slice(0, line.length - 5));
    const torn = await open(data);
    expect(torn.list('diagnosticMeasures').map((r) => r.id)).toEqual(['before']);
    await torn.close();
    await writeFile(`${data}.journal`, `${line}\n`);
    const complete = await open(data);
    expect(complete.list('diagnosticMeasures').map((r) => r.id)).toEqual(['snap']);
    await complete.close();
    await store.close();
  });

  it('cuts a torn last line off before appending after it, so the next start still reads the journal', async () => {
    const file = join(await tempDir(), 'data.json');
    await writeFile(file, '{}');
    await writeFile(`${file}.journal`, '{"c":"diagnosticMeas');
    const store = await open(file);
    await store.commit([{ coll: 'diagnosticMeasures', id: 'm1', after: measure('m1') }]);
    // As after kill -9: the next start replays the journal.
    const again = await open(await crashCopy(file));
    expect(again.list('diagnosticMeasures').map((r) => r.id)).toEqual(['m1']);
    await again.close();
    await store.close();
  });

  it('refuses journal lines that break the schema or name another id, naming the line', async () => {
    for (const [line, why] of [
      [{ c: 'diagnosticMeasures', id: 'other', v: { id: 'other', bogus: true } }, /line 2 does not hold a valid/],
      [{ c: 'diagnosticMeasures', id: 'x', v: measure('y') }, /line 2 names id x but holds record y/],
    ] as const) {
      const file = join(await tempDir(), 'data.json');
      await writeFile(file, '{}');
      const first = JSON.stringify({ c: 'diagnosticMeasures', id: 'm1', v: measure('m1') });
      const text = `${first}\n${JSON.stringify(line)}\n`;
      await writeFile(`${file}.journal`, text);
      await expect(open(file)).rejects.toThrow(why);
      expect(await readFile(`${file}.journal`, 'utf8')).toBe(text);
      expect(await readFile(file, 'utf8')).toBe('{}');
    }
  });

  it('folds a journal grown large by a few big records, and reads back lines longer than its read buffer', async () => {
    const file = join(await tempDir(), 'data.json');
    // Folded at 8 MiB rather than the default 64 (36 records of 2.4 MB took ~20 s of the unit tier).
    const store = await Store.open({ file, foldBytes: 8 * 2 ** 20 });
    // A measure of ~2.4 MB: 100,000 panic ranges, each line longer than the journal's 1 MiB read chunk.
    const big = (n: number) => ({
      ...measure('big'),
      description: `revision ${n}`,
      panicRanges: Array.from({ length: 100_000 }, (_, i) => ({ min: i, sex: 'all' })),
    });
    const sizes: number[] = [];
    for (let n = 0; n < 9; n++) {
      await store.commit([{ coll: 'diagnosticMeasures', id: 'big', after: big(n) }]);
      sizes.push((await stat(`${file}.journal`)).size);
    }
    // Far fewer than foldEvery changes, yet the journal was folded once it passed 8 MiB (the same 6 MiB of
    // room for the record that crossed it and those that came during the fold as at 64).
    expect(Math.max(...sizes)).toBeLessThan(14 * 2 ** 20);
    expect(sizes.some((size, i) => i > 0 && size < sizes[i - 1])).toBe(true);
    await store.commit([{ coll: 'diagnosticMeasures', id: 'big', after: big(99) }]);
    const again = await open(await crashCopy(file));
    expect(again.get('diagnosticMeasures', 'big')?.description).toBe('revision 99');
    await again.close();
    await store.close();
  }, 60_000);
});

describe('dataFileSlices', () => {
  it('cuts the data file by size, never inside a record, into pieces that join to the whole text', () => {
    const big = Array.from({ length: 40 }, (_, i) => ({ ...measure(`m${i}`), description: 'x'.repeat(60_000) }));
    const small = Array.from({ length: 3000 }, (_, i) => measure(`s${i}`));
    const data = { diagnosticMeasures: [...big, ...small], insuranceCoverages: [], notifications: [], contracts: [] };
    const slices = [...dataFileSlices(data, 256 * 1024)];
    expect(slices.join('')).toBe(serializeDataFile(data));
    // Each slice stops at the first record that takes it past the size: at most one record over.
    for (const s of slices) expect(s.length).toBeLessThan(256 * 1024 + 61_000);
    expect(slices.length).toBeGreaterThan(10);
    expect(JSON.parse(slices.join('')).diagnosticMeasures).toHaveLength(3040);
  });
});
