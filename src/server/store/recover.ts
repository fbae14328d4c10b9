import { type FileHandle, stat } from 'node:fs/promises';
import { OwnFileError, openOwnFile, removeOwnFile } from '../../files/own-file.js';
import type { DataFile } from '../../schemas/data-file.js';
import { DATA_FORMAT } from '../../schemas/data-file.js';
import { CutMark } from './cut-mark.js';
import { readDataFile } from './data-file.js';
import { type JournalEntry, readJournal } from './journal.js';
import { migrateToFormat2 } from './migrate.js';
import { describeFsError, type StoreFs } from './store-fs.js';

/** What a start finds on disk: the data file, the changes to replay over it, and the journal opened to append. */
interface Recovered {
  data: DataFile | undefined;
  /** Bytes of the data file as read (0 when there is none). */
  dataFileSize: number;
  /** The journal set aside by a fold cut short, then the journal: replayed over the data file in this order. */
  older: JournalEntry[];
  replay: JournalEntry[];
  /** The journal's length up to its last whole, acknowledged line. */
  goodLength: number;
  journal: FileHandle;
  cutMark: CutMark | undefined;
  /** The data file was format 1 and is moved to format 2 in memory: it is to be written before any change. */
  migrated: boolean;
}

/**
 * Reads what the last run left (after a crash too): the data file, the journal set aside by a fold cut short,
 * and the journal up to its cut mark; cuts a torn last line off before anything is appended after it.
 */
export async function recover(file: string, fs: StoreFs, warn: (m: string) => void): Promise<Recovered> {
  const data = await readDataFile(file);
  const journalPath = `${file}.journal`;
  // A fold cut short leaves the journal it set aside, and perhaps the empty one it made.
  const { entries: older } = await readJournal(`${file}.journal.old`, warn);
  await removeOwnFile(`${file}.journal.next`);
  // A failed write that could not be cut back left its mark: the journal counts only up to it.
  const marked = await CutMark.read(fs, `${journalPath}.cut`);
  const { entries: replay, goodLength } = await readJournal(journalPath, warn, marked);
  // During a fold the journal shares its inode with the one set aside, until the fresh one is renamed in.
  const journal = await openOwnFile(journalPath, 'append', { open: fs.open, alsoNamed: `${file}.journal.old` });
  try {
    if ((await journal.stat()).size > goodLength) {
      await journal.truncate(goodLength);
      await journal.datasync();
    }
    // Blank again once the journal is cut; a mark left set would cut acknowledged writes at the next start.
    const cutMark = await CutMark.open(fs, `${journalPath}.cut`).catch((err: Error) => {
      if (marked !== undefined || err instanceof OwnFileError) throw err;
      const why = describeFsError(err);
      warn(`cannot keep ${journalPath}.cut (${why}): a failed write that cannot be cut back may reappear`);
      return undefined;
    });
    const dataFileSize = data === undefined ? 0 : (await stat(file)).size;
    // Format 1 (no formatVersion): its ages, and those of the journal written beside it, move to format 2.
    const migrated = data !== undefined && data.formatVersion === undefined;
    if (migrated) {
      const banded = migrateToFormat2(data, [...older, ...replay]);
      warn(
        `${file} has no formatVersion (format 1): converting it to format ${DATA_FORMAT}, ages as exact years, ` +
          `each band [ageMin, ageMax) (${banded} measure${banded === 1 ? '' : 's'} with age bands); ` +
          'this is done once',
      );
    }
    return { data, dataFileSize, older, replay, goodLength, journal, cutMark, migrated };
  } catch (err) {
    await journal.close().catch(() => undefined);
    throw err;
  }
}
