import { unlink } from 'node:fs/promises';
import type { CollectionName, DataFile } from '../../schemas/data-file.js';
import { Collections, type State } from './collections.js';
import { realDataFile } from './data-file.js';
import { type DataFileLock, lockDataFile } from './data-file-lock.js';
import { journalLine, resetLine } from './journal.js';
import { JournalFile, StoreUnavailableError } from './journal-file.js';
import { type Change, type Pending, PendingWrites } from './pending.js';
import type { StoredRecord } from './records.js';
import { recover } from './recover.js';
import { describeFsError, exists, nodeFs, type StoreFs } from './store-fs.js';
import type { StoreOptions } from './store-options.js';
import { writeDataFile } from './write-data-file.js';

export { StoreUnavailableError };

/** A journal this large is folded even before it has `foldEvery` changes: it stays bounded. */
const FOLD_BYTES = 64 * 1024 * 1024;

/**
 * The data file plus an append-only journal beside it (`<file>.journal`).
 * A change is applied in memory at once (so concurrent requests see each other and never lose an
 * update), appended to the journal with the others of the same tick, and acknowledged after one
 * fdatasync: the cost of a write does not grow with the number of records. The journal is folded
 * into the data file (temp file, fsync, rename, fsync of the folder) once it has grown as large as
 * the file, and on close.
 *
 * A fold while serving stays off the request path. The journal is set aside as `<file>.journal.old`
 * (a hard link, then an empty journal renamed over the old name: the name never goes missing) and new
 * writes go to the fresh journal at once; the records of that moment (never changed in place, so a
 * copy of the references holds that moment) are written to the data file in slices; then the old journal
 * is removed. A start replays the data file, the old journal, then the journal: lines are whole
 * records, so replaying one already folded changes nothing.
 */
export class Store {
  private readonly records = new Collections();
  private queue: Pending[] = [];
  private flushing = false;
  /** Bytes of the data file as last written or read. */
  private dataFileSize = 0;
  private foldBytes = FOLD_BYTES;
  private closed = false;
  private keepNotifications = 0;
  /** A fold writing in the background, if one is. */
  private folding: Promise<void> | undefined;
  private readonly pending = new PendingWrites();
  /** How many resets (a sandbox's reset or load) have replaced every record: an index built before one is stale. */
  resets = 0;

  private constructor(
    readonly file: string,
    private readonly journal: JournalFile,
    private readonly lock: DataFileLock,
    private readonly foldEvery: number,
    private readonly warn: (message: string) => void,
    private readonly fs: StoreFs,
  ) {}

  static async open(options: StoreOptions): Promise<Store> {
    const warn = options.warn ?? ((m: string) => process.stderr.write(`warning: ${m}\n`));
    // Through a symlinked --data, the lock and every fold go to the target: one file, one lock.
    const file = await realDataFile(options.file);
    const lock = await lockDataFile(file, options.file, { runtimeDir: options.runtimeDir, warn });
    let journal: JournalFile | undefined;
    try {
      const fs = options.fs ?? nodeFs;
      const found = await recover(file, fs, warn);
      const { data, older, replay } = found;
      journal = new JournalFile(found.journal, file, fs, found.cutMark, warn, found.goodLength, replay.length);
      const store = new Store(file, journal, lock, options.foldEvery ?? 2000, warn, fs);
      store.keepNotifications = options.keepNotifications ?? 0;
      store.foldBytes = options.foldBytes ?? FOLD_BYTES;
      store.records.replay(data, [...older, ...replay]);
      store.dataFileSize = found.dataFileSize;
      // Start from a complete data file and an empty journal, so the file on disk is whole on its own. On a
      // full disk that waits: the journal holds every change, and the server runs from it meanwhile.
      // A file moved to format 2 (recover.ts) is written before any change is taken, or the start fails.
      if (found.migrated) await store.foldNow();
      else if (data === undefined || replay.length > 0 || older.length > 0) {
        await store
          .foldNow()
          .catch((err: Error) =>
            warn(`could not fold the journal into ${file} (${describeFsError(err)}); it keeps every change`),
          );
      }
      return store;
    } catch (err) {
      await journal?.close();
      await lock.release();
      throw err;
    }
  }

  list(coll: CollectionName): StoredRecord[] {
    return this.records.list(coll);
  }

  get(coll: CollectionName, id: string): StoredRecord | undefined {
    return this.records.get(coll, id);
  }

  count(coll: CollectionName): number {
    return this.records.count(coll);
  }

  /** Puts (or with `after` undefined, deletes) records; resolves once they are on disk. */
  commit(writes: { coll: CollectionName; id: string; after: StoredRecord | undefined }[]): Promise<void> {
    if (this.closed) return Promise.reject(new StoreUnavailableError('the server is shutting down'));
    const changes: Change[] = writes.map((w) => {
      const before = this.get(w.coll, w.id);
      this.records.set(w.coll, w.id, w.after);
      return { coll: w.coll, id: w.id, before, after: w.after };
    });
    this.pending.count(changes, 1);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ changes, resolve, reject });
      if (!this.flushing) void this.flushLoop();
    });
  }

  /**
   * Replaces every record with `state` at once (a sandbox reset): one journal line, so a crash leaves the
   * old state or the new one, never half of each; resolves once it is on disk. No change is tracked as a
   * notification: it is not the service's.
   */
  reset(state: State, line = resetLine(state)): Promise<void> {
    if (this.closed) return Promise.reject(new StoreUnavailableError('the server is shutting down'));
    const before = this.records.load(state);
    this.resets++;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ changes: [], reset: { line, before }, resolve, reject });
      if (!this.flushing) void this.flushLoop();
    });
  }

  /** The state as acknowledged writes left it (queued changes taken back): what a sandbox snapshot holds. */
  acknowledged(): State {
    return this.records.acknowledged(this.queue.flatMap((p) => p.changes));
  }

  /** Resolves when no fold is writing in the background (a fold is never needed for durability). */
  async folded(): Promise<void> {
    await this.folding;
  }

  /** Whether a record (or any record of a collection) has a change that is not on disk yet. */
  isPending(coll: CollectionName, id?: string): boolean {
    return this.pending.has(coll, id);
  }

  /** Resolves once every change made so far is on disk (or was undone by a failed flush). */
  settle(): Promise<void> {
    if (!this.flushing && this.queue.length === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.queue.push({ changes: [], resolve, reject: () => resolve() });
      if (!this.flushing) void this.flushLoop();
    });
  }

  /** Settles a pending commit: it no longer counts as pending, then its promise is resolved or rejected. */
  private settleOne(p: Pending, err?: Error): void {
    this.pending.count(p.changes, -1);
    if (err) p.reject(err);
    else p.resolve();
  }

  /** Waits for queued writes, folds the journal into the data file, and releases the lock. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.flushing) await new Promise((r) => setTimeout(r, 5));
    await this.folding;
    try {
      try {
        // Nothing journalled since the file was last made whole: rewriting it, the longest step of a start,
        // would change nothing.
        const whole = this.journal.size === 0 && !(await exists(`${this.file}.journal.old`));
        if (!whole) await this.foldNow();
      } catch (err) {
        throw new StoreUnavailableError(
          `could not fold the journal into ${this.file} (${describeFsError(err as Error)}); every acknowledged ` +
            `change is kept in ${this.file}.journal and the next start recovers it`,
        );
      }
      // The data file is complete on its own now; an empty journal, and its cut mark, are only clutter.
      await unlink(`${this.file}.journal`).catch(() => undefined);
      await unlink(`${this.file}.journal.cut`).catch(() => undefined);
    } finally {
      await this.journal.close();
      await this.lock.release();
    }
  }

  private async flushLoop(): Promise<void> {
    this.flushing = true;
    // Yield once so that the writes of the same tick share one fsync.
    await new Promise((r) => setImmediate(r));
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        const entries = batch.flatMap((p) => (p.reset ? [p.reset.line] : p.changes.map(journalLine)));
        if (entries.length === 0) {
          // Only settle() markers: everything before them is already flushed.
          for (const p of batch) this.settleOne(p);
          continue;
        }
        const sizeBefore = this.journal.size;
        try {
          const changes = batch.reduce((n, p) => n + (p.reset ? 1 : p.changes.length), 0);
          await this.journal.append(`${entries.join('\n')}\n`, changes);
        } catch (err) {
          await this.failFrom(batch, sizeBefore, err as Error);
          continue;
        }
        // Folding rewrites the whole file, so it waits until the journal is as large as the file: the
        // rewriting then costs at most the bytes journalled, and a write costs the same at any size. A
        // small file waits for enough changes too, unless a few large records have made the journal big.
        // The journal is set aside before these writes are acknowledged, so the fold holds them.
        const due = this.journal.changes >= this.foldEvery || this.journal.size >= this.foldBytes;
        if (due && this.journal.size >= this.dataFileSize && !this.folding) {
          const records = await this.setAside().catch((e: Error) => {
            this.warn(`could not set the journal aside to fold it: ${describeFsError(e)}; it keeps every change`);
            return undefined;
          });
          if (records) {
            this.folding = this.foldInBackground(records)
              .catch((e: Error) =>
                this.warn(`could not fold the journal into ${this.file}: ${describeFsError(e)}; it keeps every change`),
              )
              .finally(() => {
                this.folding = undefined;
              });
          }
        }
        for (const p of batch) this.settleOne(p);
      }
    } finally {
      this.flushing = false;
    }
  }

  /**
   * A flush failed: undo it and everything queued after it (those changes were computed on top of
   * it), in reverse order, and cut the journal back so nothing unacknowledged survives a restart.
   */
  private async failFrom(batch: Pending[], sizeBefore: number, err: Error): Promise<void> {
    const failed = [...batch, ...this.queue];
    this.queue = [];
    this.records.undo(failed);
    await this.journal.cutBack(sizeBefore);
    const reason =
      err instanceof StoreUnavailableError
        ? err
        : new StoreUnavailableError(`the change could not be saved to ${this.file}: ${describeFsError(err)}`);
    if (reason !== this.journal.broken) this.warn(reason.message);
    for (const p of failed) this.settleOne(p, reason);
  }

  /** Folds everything into the data file while nothing else runs (at start and at close). */
  private async foldNow(): Promise<void> {
    this.records.trimNotifications(this.keepNotifications);
    this.dataFileSize = await writeDataFile(this.fs, this.file, this.acknowledged());
    await this.lock.follow();
    await this.journal.empty();
    await unlink(`${this.file}.journal.old`).catch(() => undefined);
  }

  /** Sets the journal aside for a fold, between two flushes; returns the records of that moment. */
  private async setAside(): Promise<{ [K in CollectionName]: StoredRecord[] } | undefined> {
    if (!(await this.journal.setAside())) {
      // A fold that failed before left its journal: fold everything now, as a start does (writes wait).
      await this.foldNow();
      return undefined;
    }
    this.records.trimNotifications(this.keepNotifications);
    return this.acknowledged();
  }

  /** Writes the records set aside with the journal into the data file in the background, then drops that journal. */
  private async foldInBackground(records: { [K in CollectionName]: StoredRecord[] }): Promise<void> {
    this.dataFileSize = await writeDataFile(this.fs, this.file, records);
    await this.lock.follow();
    await unlink(`${this.file}.journal.old`);
  }
}

export type { DataFile, State, StoredRecord, StoreFs };
