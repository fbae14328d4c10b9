import type { FileHandle } from 'node:fs/promises';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Pieces stay under V8's large-object size (128 KB), so each dies young instead of waiting for a full GC.
const PIECE = 1 << 16;

/** A spool that cannot be made, written or read: a temp folder that is full or not writable. */
export class SpoolError extends Error {
  override name = 'SpoolError';
}

const failed = (err: unknown): never => {
  const reason = (err as NodeJS.ErrnoException).code === 'ENOSPC' ? 'the disk is full' : (err as Error).message;
  throw new SpoolError(`cannot use a spool file in ${tmpdir()}: ${reason}`, { cause: err });
};

/**
 * Lines kept on disk instead of in memory: an import of 100,000 records writes what it checked here and
 * reads it back to send, so its memory does not grow with the file. The folder is private (0700) and the
 * file is removed as soon as it is open where the system allows it, so even a killed run leaves nothing.
 */
export class Spool {
  private pending: string[] = [];
  private pendingBytes = 0;
  private size = 0;
  private writing: Promise<void> = Promise.resolve();
  private unwritten = 0;
  /** How many lines were written. */
  count = 0;

  private constructor(
    private readonly fh: FileHandle,
    private readonly cleanup: () => Promise<void>,
  ) {}

  static async create(): Promise<Spool> {
    try {
      const dir = await mkdtemp(join(tmpdir(), 'clinadmin-'));
      const fh = await open(join(dir, 'spool'), 'w+', 0o600);
      const gone = await rm(dir, { recursive: true })
        .then(() => true)
        .catch(() => false);
      return new Spool(fh, gone ? async () => undefined : () => rm(dir, { recursive: true, force: true }));
    } catch (err) {
      return failed(err);
    }
  }

  /** Adds a line (without its newline); the text is written in 64 KB batches, in the background. */
  push(line: string): void {
    this.pending.push(line);
    this.pendingBytes += line.length + 1;
    this.count++;
    if (this.pendingBytes >= PIECE) this.flush();
  }

  /** Bytes handed to the disk and not yet written: a caller far ahead waits for settled(). */
  get backlog(): number {
    return this.unwritten;
  }

  /** Resolves once every line pushed so far is written; rejects if a write failed. */
  settled(): Promise<void> {
    this.flush();
    return this.writing;
  }

  /** Writes what is pending; writes go one after another, each at the end of the ones before. */
  private flush(): void {
    if (this.pending.length === 0) return;
    const text = `${this.pending.join('\n')}\n`;
    this.pending = [];
    this.pendingBytes = 0;
    const at = this.size;
    const bytes = Buffer.byteLength(text);
    this.size += bytes;
    this.unwritten += bytes;
    this.writing = this.writing.then(async () => {
      await this.fh.write(text, at, 'utf8').catch(failed);
      this.unwritten -= bytes;
    });
    // A failed write is reported where settled() or batches() is awaited, not as an unhandled rejection.
    this.writing.catch(() => undefined);
  }

  /** Every line written so far, in order; may be called more than once. */
  async *lines(): AsyncGenerator<string> {
    for await (const batch of this.batches()) yield* batch;
  }

  /** The lines in batches, one per 64 KB piece read back: a step per piece, not per line. */
  async *batches(): AsyncGenerator<string[]> {
    await this.settled();
    const piece = Buffer.allocUnsafe(PIECE);
    // A line longer than a piece is gathered as bytes: a piece may end inside a character.
    const carry: Buffer[] = [];
    for (let at = 0; at < this.size; ) {
      const { bytesRead } = await this.fh.read(piece, 0, piece.length, at).catch(failed);
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
      yield text.split('\n');
    }
  }

  async close(): Promise<void> {
    await this.fh.close().catch(() => undefined);
    await this.cleanup();
  }
}
