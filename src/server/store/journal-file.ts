import { type FileHandle, link, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { openOwnFile } from '../../files/own-file.js';
import type { CutMark } from './cut-mark.js';
import { describeFsError, type StoreFs, syncDir } from './store-fs.js';

/** A write that could not be made durable; nothing of it was acknowledged or kept. */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

/**
 * `<data file>.journal` as the store appends to it: whole lines, each append acknowledged only once all its
 * bytes are written and synced; a failed one cut back off (or, when even that fails, marked in
 * `.journal.cut` and no further write taken); set aside as `.journal.old` for a fold, never going missing.
 */
export class JournalFile {
  /** Set when the journal could not be cut back after a failed write: no further write is taken. */
  broken: StoreUnavailableError | undefined;

  constructor(
    private fh: FileHandle,
    private readonly dataFile: string,
    private readonly fs: StoreFs,
    private readonly cutMark: CutMark | undefined,
    private readonly warn: (message: string) => void,
    /** Bytes and changes journalled since the data file was last made whole. */
    public size: number,
    public changes: number,
  ) {}

  get path(): string {
    return `${this.dataFile}.journal`;
  }

  /** Appends whole lines and syncs them; throws when they are not all on disk (the caller cuts back). */
  async append(lines: string, changes: number): Promise<void> {
    if (this.broken) throw this.broken;
    const buf = Buffer.from(lines);
    // A full disk can take part of a write and report it short: only a whole write is acknowledged.
    const { bytesWritten } = await this.fh.write(buf);
    if (bytesWritten !== buf.length) {
      throw Object.assign(new Error(`only ${bytesWritten} of ${buf.length} bytes were written`), { code: 'ENOSPC' });
    }
    await this.fh.datasync();
    this.size += buf.length;
    this.changes += changes;
  }

  /**
   * Back to the last whole line after a failed append, before anything else is appended; a journal that
   * cannot be cut back takes no more writes (a restart drops its torn last line, never acknowledged).
   */
  async cutBack(size: number): Promise<void> {
    if (this.broken) return;
    try {
      await this.fh.truncate(size);
    } catch (cut) {
      // The refused change may be in the journal whole: the mark makes the next start read only up to it.
      const marked = await this.cutMark?.set(size).then(
        () => true,
        () => false,
      );
      this.broken = new StoreUnavailableError(
        `${this.path} could not be cut back after a failed write (${describeFsError(cut as Error)}); ` +
          (marked
            ? 'restart the server to recover every acknowledged change'
            : 'nor marked: a restart may bring back the change refused with 503'),
      );
      this.warn(this.broken.message);
    }
  }

  /** Empties the journal once the data file holds every change. */
  async empty(): Promise<void> {
    await this.fh.truncate(0);
    await this.fh.datasync();
    this.size = 0;
    this.changes = 0;
  }

  /**
   * Sets the journal aside as `.journal.old` and starts a fresh one: a hard link keeps the old one, then the
   * empty new one is renamed over the name, which so never goes missing. False when a `.journal.old` is
   * already there (a fold that failed before left it): nothing was changed.
   */
  async setAside(): Promise<boolean> {
    const next = `${this.path}.next`;
    // Made afresh: a name planted there since the start (recover removed the last run's) is refused.
    const fresh = await openOwnFile(next, 'create', { open: this.fs.open });
    try {
      await link(this.path, `${this.path}.old`);
    } catch (err) {
      await fresh.close();
      await unlink(next).catch(() => undefined);
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
    await this.fs.rename(next, this.path);
    await syncDir(this.fs, dirname(this.dataFile));
    const before = this.fh;
    this.fh = fresh;
    this.size = 0;
    this.changes = 0;
    await before.close();
    return true;
  }

  async close(): Promise<void> {
    await this.fh.close().catch(() => undefined);
    await this.cutMark?.close().catch(() => undefined);
  }
}
