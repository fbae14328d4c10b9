import type { FileHandle } from 'node:fs/promises';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Pieces stay under V8's large-object size (128 KB), so each dies young instead of waiting for a full GC.
const PIECE = 1 << 16;
/**
 * Items held in memory up to about this many bytes of text; past it, all go to disk. Small, as what is
 * held before a spill is promoted and then garbage: a larger cap raised an import's peak memory and gained
 * no speed (bench/notes.md).
 */
const BUDGET = 4 << 20;
/** Items handed out together from memory, about as many as a 64 KB piece read back holds. */
const BATCH = 128;

/** A spool that cannot be made, written or read: a temp folder that is full or not writable. */
export class SpoolError extends Error {
  override name = 'SpoolError';
}

const failed = (err: unknown): never => {
  const reason = (err as NodeJS.ErrnoException).code === 'ENOSPC' ? 'the disk is full' : (err as Error).message;
  throw new SpoolError(`cannot use a spool file in ${tmpdir()}: ${reason}`, { cause: err });
};

/** How items become lines of the spool file and back. */
interface Codec<T> {
  encode(item: T): string;
  decode(line: string): T;
}

/** Items as JSON text, one a line. */
export function jsonLines<T>(): Codec<T> {
  return { encode: (item) => JSON.stringify(item), decode: (line) => JSON.parse(line) as T };
}

/** A private file, removed from its folder as soon as it is open, so even a killed run leaves nothing. */
async function privateFile(): Promise<{ fh: FileHandle; cleanup: () => Promise<void> }> {
  try {
    const dir = await mkdtemp(join(tmpdir(), 'clinadmin-'));
    const fh = await open(join(dir, 'spool'), 'w+', 0o600);
    const gone = await rm(dir, { recursive: true })
      .then(() => true)
      .catch(() => false);
    return { fh, cleanup: gone ? async () => undefined : () => rm(dir, { recursive: true, force: true }) };
  } catch (err) {
    return failed(err);
  }
}

/**
 * Items kept in order, in memory while they are few and on disk once they pass a budget (4 MB of
 * text by default): an import of 10,000 records runs as fast as one that holds them, and one of
 * 100,000 keeps its memory flat. The file is private (0700 folder, 0600 file) under the temp folder.
 */
export class Spool<T> {
  private held: T[] | undefined = [];
  private heldBytes = 0;
  private file: Promise<{ fh: FileHandle; cleanup: () => Promise<void> }> | undefined;
  private pending: string[] = [];
  private pendingBytes = 0;
  private size = 0;
  private writing: Promise<unknown> = Promise.resolve();
  private unwritten = 0;
  /** How many items were pushed. */
  count = 0;

  constructor(
    private readonly codec: Codec<T>,
    private readonly budget = BUDGET,
  ) {}

  /** Adds an item (`bytes`: about how much text it holds); once past the budget, written in the background. */
  push(item: T, bytes: number): void {
    this.count++;
    if (this.held) {
      this.held.push(item);
      this.heldBytes += bytes;
      if (this.heldBytes > this.budget) this.spill();
      return;
    }
    const line = this.codec.encode(item);
    this.pending.push(line);
    this.pendingBytes += line.length + 1;
    if (this.pendingBytes >= PIECE) this.flush();
  }

  /** Moves what is held to the file: from here on every item goes there. */
  private spill(): void {
    const held = this.held ?? [];
    this.held = undefined;
    this.file = privateFile();
    this.writing = this.file;
    this.writing.catch(() => undefined);
    for (const item of held) {
      const line = this.codec.encode(item);
      this.pending.push(line);
      this.pendingBytes += line.length + 1;
      if (this.pendingBytes >= PIECE) this.flush();
    }
  }

  /** Bytes handed to the disk and not yet written: a caller far ahead waits for settled(). */
  get backlog(): number {
    return this.unwritten;
  }

  /** Resolves once every item pushed so far is written (or held); rejects if the file failed. */
  async settled(): Promise<void> {
    this.flush();
    await this.writing;
  }

  /** Writes what is pending; writes go one after another, each at the end of the ones before. */
  private flush(): void {
    if (this.pending.length === 0 || !this.file) return;
    const text = `${this.pending.join('\n')}\n`;
    this.pending = [];
    this.pendingBytes = 0;
    const at = this.size;
    const bytes = Buffer.byteLength(text);
    this.size += bytes;
    this.unwritten += bytes;
    const file = this.file;
    this.writing = this.writing.then(async () => {
      await (await file).fh.write(text, at, 'utf8').catch(failed);
      this.unwritten -= bytes;
    });
    // A failed write is reported where settled() or batches() is awaited, not as an unhandled rejection.
    this.writing.catch(() => undefined);
  }

  /** Every item pushed so far, in order, in batches; may be called more than once. */
  async *batches(): AsyncGenerator<T[]> {
    if (this.held) {
      for (let i = 0; i < this.held.length; i += BATCH) yield this.held.slice(i, i + BATCH);
      return;
    }
    await this.settled();
    const { fh } = await this.file!;
    const piece = Buffer.allocUnsafe(PIECE);
    // A line longer than a piece is gathered as bytes: a piece may end inside a character.
    const carry: Buffer[] = [];
    for (let at = 0; at < this.size; ) {
      const { bytesRead } = await fh.read(piece, 0, piece.length, at).catch(failed);
      if (bytesRead === 0) break;
      const end = piece.lastIndexOf(10, bytesRead - 1);
      if (end < 0) {
        carry.push(Buffer.from(piece.subarray(0, bytesRead)));
        at += bytesRead;
        continue;
      }
      const text = Buffer.concat([...carry, piece.subarray(0, end)]).toString('utf8');
      carry.length = 0;
      at += end + 1;
      yield text.split('\n').map((line) => this.codec.decode(line));
    }
  }

  async close(): Promise<void> {
    this.held = [];
    if (!this.file) return;
    const file = await this.file.catch(() => undefined);
    this.file = undefined;
    if (!file) return;
    await file.fh.close().catch(() => undefined);
    await file.cleanup();
  }
}
