import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { acquireLock, elsewhere, LockHeldError } from '../lock/lock.js';
import { DataFileError } from './data-file.js';

/**
 * The data file's real path: one file reached through a symlink or another relative path is still one
 * file, so its lock and its folds must go to the same place.
 */
export async function realDataFile(dataFile: string): Promise<string> {
  try {
    return await realpath(dataFile);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return join(await realpath(dirname(dataFile)), basename(dataFile));
  }
}

/**
 * Takes `<real data file>.lock` and, when the file exists, a lock named after its device and inode in its
 * folder, so two servers never write one file, whatever path each was given: a symlink resolves to the
 * same real path, a hard link (a second name in the same folder) to the same inode.
 */
export async function lockDataFile(realFile: string, given = realFile): Promise<() => Promise<void>> {
  const release = await lockOne(`${realFile}.lock`, given);
  const id = await stat(realFile).catch(() => undefined);
  if (!id) return release;
  try {
    const byInode = await lockOne(join(dirname(realFile), `.clinadmin-${id.dev}-${id.ino}.lock`), given);
    return async () => {
      await byInode();
      await release();
    };
  } catch (err) {
    await release();
    throw err;
  }
}

async function lockOne(lock: string, given: string): Promise<() => Promise<void>> {
  try {
    return await acquireLock(lock);
  } catch (err) {
    if (err instanceof LockHeldError && err.owner) {
      const who = `process ${err.owner.pid}${elsewhere(err.owner)}`;
      throw new DataFileError(`${given} is in use by another clinadmin serve (${who}); stop it first`);
    }
    if (err instanceof LockHeldError) {
      throw new DataFileError(`${lock} does not say which process holds it; if no server runs, remove it`);
    }
    if ((err as NodeJS.ErrnoException).code === 'ENOSPC') {
      throw new DataFileError(
        `cannot take the lock ${lock}: the disk is full; free some space and start again ` +
          '(every acknowledged change is kept)',
      );
    }
    throw new DataFileError(`cannot take the lock ${lock}: ${(err as Error).message}`);
  }
}
