import { constants } from 'node:fs';
import { type FileHandle, open, rmdir } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { OwnFileError, openOwnFolder } from '../../files/own-file.js';
import { acquireLock, elsewhere, LockHeldError } from '../../lock/lock.js';
import { DataFileError } from './data-file.js';

/** Where the locks by device and inode go besides the file's folder; `XDG_RUNTIME_DIR` when set. */
interface LockPlaces {
  runtimeDir?: string;
  warn?: (message: string) => void;
}

/** serve's hold on its data file: released at the end, and following the file when a fold replaces it. */
export interface DataFileLock {
  release(): Promise<void>;
  /**
   * Takes the locks by device and inode of the file now at the path, then lets the old ones go: a fold
   * renames a new file over the data file, and the old inode, once freed, may be given to the next new file.
   */
  follow(): Promise<void>;
}

/**
 * Takes `<real data file>.lock` and, when the file exists, a lock named after its device and inode, both in
 * its folder (seen by every container that shares the volume) and in this user's runtime folder (seen
 * whatever folder a hard link is in), so two servers never write one file, whatever path each was given: a
 * symlink resolves to the same real path, a hard link anywhere on the machine to the same inode.
 */
export async function lockDataFile(realFile: string, given = realFile, places: LockPlaces = {}): Promise<DataFileLock> {
  const byPath = await lockOne(`${realFile}.lock`, given);
  let byInode: { key: string; release: () => Promise<void> } | undefined;
  const lockInode = async () => {
    // The file is held open as long as the locks named after its inode: the inode outlives them, so no new
    // file is given its number while they stand (a fold's rename would free it before follow lets them go).
    // O_NONBLOCK: a FIFO in the data file's place is judged by the data file's reader, never waited on here.
    const fh = await open(realFile, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => undefined);
    const id = await fh?.stat();
    const key = id ? `${id.dev}-${id.ino}` : undefined;
    if (key === byInode?.key) {
      await fh?.close();
      return;
    }
    const next =
      key && fh ? { key, release: await whileOpen(fh, () => inodeLocks(realFile, given, key, places)) } : undefined;
    const old = byInode;
    byInode = next;
    await old?.release();
  };
  try {
    await lockInode();
  } catch (err) {
    await byPath();
    throw err;
  }
  return {
    // The file is written already: a lock that cannot follow it is said, and the path's lock still holds.
    follow: () => lockInode().catch((err: Error) => places.warn?.(`${err.message} (after a fold of ${given})`)),
    release: async () => {
      await byInode?.release();
      byInode = undefined;
      await byPath();
    },
  };
}

/** Locks taken while `fh` is open, which closes once they are let go, or when they cannot be taken. */
async function whileOpen(fh: FileHandle, take: () => Promise<() => Promise<void>>): Promise<() => Promise<void>> {
  try {
    const release = await take();
    return async () => {
      await release();
      await fh.close();
    };
  } catch (err) {
    await fh.close();
    throw err;
  }
}

/** The locks named after one device and inode: in the file's folder and in the runtime folder. */
async function inodeLocks(realFile: string, given: string, key: string, places: LockPlaces) {
  const name = `.clinadmin-${key}.lock`;
  const releases = [await lockOne(join(dirname(realFile), name), given)];
  const releaseAll = async () => {
    for (const release of releases.reverse()) await release();
  };
  try {
    const release = await runtimeLock(name, given, places);
    if (release) releases.push(release);
    return releaseAll;
  } catch (err) {
    await releaseAll();
    throw err;
  }
}

/**
 * The lock `name` in this user's runtime folder, or none (said) when the folder cannot be used. The last
 * server out removes the folder (one still in use is not empty), so one removed under us, before our lock
 * is in it, is made again and judged again, up to REMAKES times.
 */
async function runtimeLock(name: string, given: string, { runtimeDir, warn }: LockPlaces) {
  const folder = runtimeFolder(runtimeDir);
  const lock = join(folder, name);
  for (let remade = 0; ; remade++) {
    try {
      if (!(await usable(folder, warn))) return undefined;
      const release = await acquireLock(lock);
      return async () => {
        await release();
        await rmdir(folder).catch(() => undefined);
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || remade >= REMAKES) throw lockError(err, lock, given);
    }
  }
}

/**
 * How often a runtime folder that another server removed is made again before giving up: each time needs
 * a server to stop, as the last one holding a lock there, inside the instant between our mkdir and our lock.
 */
const REMAKES = 20;

/** This user's folder for locks by inode: `$XDG_RUNTIME_DIR/clinadmin`, else `<tmpdir>/clinadmin-<uid>`. */
function runtimeFolder(runtimeDir: string | undefined): string {
  return runtimeDir && isAbsolute(runtimeDir)
    ? join(runtimeDir, 'clinadmin')
    : join(tmpdir(), `clinadmin-${process.getuid?.() ?? userInfo().username}`);
}

/**
 * Makes the folder 0700 and tells whether it is this user's alone, judged on the opened folder (own-file.ts).
 * One that is a link, another user's, or open to others (planted in a shared /tmp) is passed over with a
 * warning: its locks could be forged or removed by them. Throws ENOENT when the folder is removed between
 * making it and opening it.
 */
async function usable(folder: string, warn: LockPlaces['warn']): Promise<boolean> {
  const passOver = (why: string) =>
    warn?.(`not using ${folder} for locks: ${why}; a hard link of the data file in another folder is not locked`);
  try {
    const own = await openOwnFolder(folder, { private: true });
    await own.close();
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw err;
    passOver(err instanceof OwnFileError ? err.why : (err as Error).message);
    return false;
  }
}

async function lockOne(lock: string, given: string): Promise<() => Promise<void>> {
  try {
    return await acquireLock(lock);
  } catch (err) {
    throw lockError(err, lock, given);
  }
}

/** Why a lock could not be taken, in the words of the data file the user gave. */
function lockError(err: unknown, lock: string, given: string): DataFileError {
  if (err instanceof OwnFileError) return new DataFileError(err.message);
  if (err instanceof LockHeldError && err.owner) {
    const who = `process ${err.owner.pid}${elsewhere(err.owner)}`;
    // Never waited on: a forged lock, or a pid reused after a crash, is refused at once and said so.
    return new DataFileError(
      `${given} is in use by another clinadmin serve (${who}); stop it first, ` +
        `or, if process ${err.owner.pid} is no clinadmin serve, remove ${lock}`,
    );
  }
  if (err instanceof LockHeldError) {
    return new DataFileError(`${lock} does not say which process holds it; if no server runs, remove it`);
  }
  if ((err as NodeJS.ErrnoException).code === 'ENOSPC') {
    return new DataFileError(
      `cannot take the lock ${lock}: the disk is full; free some space and start again ` +
        '(every acknowledged change is kept)',
    );
  }
  return new DataFileError(`cannot take the lock ${lock}: ${(err as Error).message}`);
}
