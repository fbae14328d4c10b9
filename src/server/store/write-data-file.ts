import { randomBytes } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { openOwnFile } from '../../files/own-file.js';
import type { CollectionName } from '../../schemas/data-file.js';
import { dataFileSlices } from './data-file.js';
import type { StoredRecord } from './records.js';
import { type StoreFs, syncDir } from './store-fs.js';

/**
 * Characters per slice of a fold: each slice is made and written before the next, and requests run in
 * between. Counted in characters, not records, as a few large records would make one long slice.
 */
const FOLD_SLICE = 256 * 1024;
/** Bytes of a fold written between two fdatasyncs of its temp file. */
const FOLD_SYNC_BYTES = 1024 * 1024;

/**
 * Writes the records as the data file: a temp file written a slice at a time, fsync, rename over the data
 * file, fsync of the folder; returns its size. On failure the data file is as it was and no temp file stays.
 */
export async function writeDataFile(
  fs: StoreFs,
  file: string,
  records: { [K in CollectionName]: StoredRecord[] },
): Promise<number> {
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  let size = 0;
  try {
    const fh = await openOwnFile(tmp, 'create', { open: fs.open });
    try {
      let unsynced = 0;
      for (const slice of dataFileSlices(records, FOLD_SLICE)) {
        const bytes = Buffer.from(slice);
        size += bytes.length;
        // writeFile on a handle writes on from where the last write ended, and writes it all.
        await fh.writeFile(bytes);
        // Flushed as it goes: one fsync of the whole file at the end would hold the journal's
        // fdatasync (and so every write) behind it on file systems that order the two.
        unsynced += bytes.length;
        if (unsynced >= FOLD_SYNC_BYTES) {
          await fh.datasync();
          unsynced = 0;
        }
      }
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fs.rename(tmp, file);
  } catch (err) {
    // The data file and the journal stay as they were; no half-written copy is left beside them.
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await syncDir(fs, dirname(file));
  return size;
}
