import type { FileHandle, open } from 'node:fs/promises';
import { OwnFileError, openOwnFile } from '../../files/own-file.js';

/** The store's file system (injectable, as the store's tests fail its writes). */
type Fs = { open: typeof open };

/** The mark's fixed size: written in place over the same bytes, it needs no new space on a full disk. */
const SIZE = 32;

/**
 * `<data file>.journal.cut`: where the journal's acknowledged content ends, for when a failed write could
 * not be cut back off the journal. A change answered 503 may still have reached the journal whole (its
 * write went through, its sync failed); the next start reads the journal only up to the mark, so that
 * change never reappears. Blank when there is nothing to cut.
 */
export class CutMark {
  private constructor(private readonly fh: FileHandle) {}

  /** The length the last run marked, or undefined when the mark is blank or missing. */
  static async read(fs: Fs, path: string): Promise<number | undefined> {
    let fh: FileHandle | undefined;
    try {
      fh = await openOwnFile(path, 'read', { open: fs.open });
    } catch (err) {
      // A planted link, FIFO or another user's file is refused; an unreadable own mark marks nothing.
      if (err instanceof OwnFileError) throw err;
      return undefined;
    }
    if (!fh) return undefined;
    try {
      const text = (await fh.readFile('utf8')).trim();
      return /^\d+$/.test(text) ? Number(text) : undefined;
    } finally {
      await fh.close();
    }
  }

  /** Opens the mark blank and durable, made once and then written in place. */
  static async open(fs: Fs, path: string): Promise<CutMark> {
    const fh = await openOwnFile(path, 'update', { open: fs.open });
    const mark = new CutMark(fh);
    try {
      await mark.write('');
    } catch (err) {
      await fh.close().catch(() => undefined);
      throw err;
    }
    return mark;
  }

  /** Marks the journal's acknowledged content as ending at `length` bytes, durably. */
  set(length: number): Promise<void> {
    return this.write(String(length));
  }

  close(): Promise<void> {
    return this.fh.close();
  }

  private async write(text: string): Promise<void> {
    const buf = Buffer.from(text.padEnd(SIZE));
    const { bytesWritten } = await this.fh.write(buf, 0, SIZE, 0);
    if (bytesWritten !== SIZE) throw new Error(`a short write to the journal's cut mark (${bytesWritten} bytes)`);
    await this.fh.datasync();
  }
}
