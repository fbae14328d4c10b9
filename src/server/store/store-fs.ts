import { type FileHandle, open, rename, stat } from 'node:fs/promises';

// The file operations of the store and its fold: one seam, so a test can make the platform refuse one.

/** The file operations the store makes, so a test can make the platform refuse one (a filesystem seam). */
export interface StoreFs {
  open: typeof open;
  rename: typeof rename;
}

export const nodeFs: StoreFs = { open, rename };

/** Codes with which a platform refuses to open or fsync a folder (Windows): there is nothing to sync. */
const DIR_SYNC_REFUSED = new Set(['EPERM', 'EISDIR', 'EINVAL']);

/** Makes a rename in `dir` durable; skipped only where the platform refuses to sync a folder at all. */
export async function syncDir(fs: Pick<StoreFs, 'open'>, dir: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await fs.open(dir, 'r');
    await fh.sync();
  } catch (err) {
    if (!DIR_SYNC_REFUSED.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
  } finally {
    await fh?.close();
  }
}

/** A file-system error in the words a person can act on. */
export function describeFsError(err: Error): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC') return 'the disk is full';
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return 'the folder is not writable';
  return err.message;
}

/** Whether a path exists. */
export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
