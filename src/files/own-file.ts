import { constants, existsSync, type Stats } from 'node:fs';
import { type FileHandle, open as fsOpen, lstat, mkdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The one door to the files a program keeps beside a file it was given (serve's journal, cut mark, lock,
 * snapshots, runtime folder, ready file). Such a folder may be one other users can write (/tmp, a group's
 * share), so any name in it may be a link they planted, a FIFO, or their own file. Every file here is
 * opened without following a link (O_NOFOLLOW), without blocking on a FIFO (O_NONBLOCK), made with
 * O_EXCL, and judged on the opened descriptor (fstat: a regular file, or folder, of this user), never by
 * an lstat before the open that the planted name could change in between.
 */

/** A file that is not this user's own regular file (or folder): its name and why, in one line. */
export class OwnFileError extends Error {
  override name = 'OwnFileError';
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(
      `cannot use ${path}: ${why}; only a regular file or folder of this user's own is used there ` +
        '(have it removed, or use a folder only you can write)',
    );
  }
}

/**
 * How a file is opened: `read` (undefined when missing); `append` and `update` (read and write in place),
 * each made afresh and exclusively when missing; `create`, only a new file (a name already there is refused).
 */
type OwnAccess = 'read' | 'append' | 'update' | 'create';

interface OwnFileOptions {
  /** Mode of a file made (0600). */
  mode?: number;
  /** The open to use (the store's tests inject a failing one). */
  open?: typeof fsOpen;
  /** Another name the file may have, as the journal shares its inode with `.journal.old` during a fold. */
  alsoNamed?: string;
}

const { O_RDONLY, O_WRONLY, O_RDWR, O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;
/** Never a link, never a wait on a FIFO, never a controlling terminal (where the platform has one). */
const SAFE = (O_NOFOLLOW ?? 0) | (O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
const FLAGS: Record<OwnAccess, number> = {
  read: O_RDONLY,
  append: O_WRONLY | O_APPEND,
  update: O_RDWR,
  create: O_WRONLY,
};

const myUid = () => process.getuid?.();
const code = (err: unknown) => (err as NodeJS.ErrnoException).code;

/** Opens `path` as this user's own regular file; only `read` resolves undefined, when there is none. */
export async function openOwnFile(
  path: string,
  access: 'read',
  options?: OwnFileOptions,
): Promise<FileHandle | undefined>;
export async function openOwnFile(
  path: string,
  access: Exclude<OwnAccess, 'read'>,
  options?: OwnFileOptions,
): Promise<FileHandle>;
export async function openOwnFile(path: string, access: OwnAccess, options: OwnFileOptions = {}) {
  const open = options.open ?? fsOpen;
  const mode = options.mode ?? 0o600;
  const flags = FLAGS[access] | SAFE;
  for (let attempt = 0; ; attempt++) {
    let fh: FileHandle;
    let made = access === 'create';
    try {
      // An existing file is opened as it is; a missing one is made, exclusively (a link there fails too).
      fh = made ? await open(path, flags | O_CREAT | O_EXCL, mode) : await open(path, flags);
    } catch (err) {
      if (code(err) === 'ENOENT' && access === 'read') return undefined;
      if (code(err) !== 'ENOENT' || attempt > 0) throw await refusal(path, err);
      made = true;
      try {
        fh = await open(path, flags | O_CREAT | O_EXCL, mode);
      } catch (again) {
        // Made by someone else in between: judge that one as any file already there.
        if (code(again) === 'EEXIST' && access !== 'create') continue;
        throw await refusal(path, again);
      }
    }
    try {
      await judge(fh, path, made || access === 'read' ? undefined : options.alsoNamed, access !== 'read' && !made);
      return fh;
    } catch (err) {
      await fh.close().catch(() => undefined);
      if (made) await unlink(path).catch(() => undefined);
      throw err;
    }
  }
}

/** Whether the opened file is this user's own regular file (and, to be written in place, has no other name). */
async function judge(fh: FileHandle, path: string, alsoNamed: string | undefined, writtenInPlace: boolean) {
  const st = await fh.stat();
  if (!st.isFile()) throw new OwnFileError(path, `it is ${kind(st)}, not a regular file`);
  checkOwner(st, path);
  // A hard link to another file of this user (planted where the kernel allows it) would be written through.
  if (writtenInPlace && st.nlink > 1) {
    const other = alsoNamed ? await lstat(alsoNamed).catch(() => undefined) : undefined;
    const shared = other && other.ino === st.ino && other.dev === st.dev && st.nlink === 2;
    if (!shared) throw new OwnFileError(path, `it has ${st.nlink} names (a hard link to another file)`);
  }
}

function checkOwner(st: Stats, path: string): void {
  const uid = myUid();
  if (uid !== undefined && st.uid !== uid) throw new OwnFileError(path, `it belongs to another user (uid ${st.uid})`);
}

function kind(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** The error an open failed with, in one line naming the file, or as it came when it is no refusal. */
async function refusal(given: string, err: unknown, path = given): Promise<Error> {
  switch (code(err)) {
    case 'ELOOP':
    case 'EMLINK':
      return new OwnFileError(path, 'it is a symbolic link (no link is followed)');
    case 'EEXIST':
      return new OwnFileError(path, 'it is there already, and this file is only ever made afresh');
    case 'ENXIO':
      return new OwnFileError(path, 'it is a FIFO or a socket, not a regular file');
    case 'EISDIR':
      return new OwnFileError(path, 'it is a folder, not a regular file');
    case 'EACCES':
    case 'EPERM': {
      const st = await lstat(given).catch(() => undefined);
      const uid = myUid();
      if (st && uid !== undefined && st.uid !== uid)
        return new OwnFileError(path, `it belongs to another user (uid ${st.uid})`);
      return err as Error;
    }
    default:
      return err as Error;
  }
}

/** A folder of this user's, opened: `at(name)` reaches a name inside it through the descriptor where it can. */
export interface OwnFolder {
  path: string;
  /**
   * A path to `name` inside this very folder: on Linux through `/proc/self/fd/N`, so a folder renamed or
   * replaced by a link after it was judged is not the one reached; elsewhere the folder's path.
   */
  at(name: string): string;
  close(): Promise<void>;
}

interface OwnFolderOptions {
  /** Mode of a folder made (0700). */
  mode?: number;
  /** Refused unless no other user may read, write or enter it (a runtime folder of locks); else none may write. */
  private?: boolean;
  /** False: only an existing folder is opened (ENOENT when there is none). */
  make?: boolean;
  /** The folder's name in messages, when `path` is reached through another folder's descriptor. */
  label?: string;
}

/**
 * Makes `path` (one level: never `mkdir -p`, which follows links) or finds it, then opens it without following
 * a link and judges the open folder: this user's, and no one else's to write (nor to read, when `private`).
 */
export async function openOwnFolder(given: string, options: OwnFolderOptions = {}): Promise<OwnFolder> {
  const path = options.label ?? given;
  if (options.make !== false) {
    try {
      await mkdir(given, { mode: options.mode ?? 0o700 });
    } catch (err) {
      if (code(err) !== 'EEXIST') throw err;
    }
  }
  let fh: FileHandle;
  try {
    fh = await fsOpen(given, O_RDONLY | (constants.O_DIRECTORY ?? 0) | SAFE);
  } catch (err) {
    if (code(err) === 'ENOTDIR') throw new OwnFileError(path, 'it is not a folder');
    throw await refusal(given, err, path);
  }
  try {
    const st = await fh.stat();
    if (!st.isDirectory()) throw new OwnFileError(path, `it is ${kind(st)}, not a folder`);
    checkOwner(st, path);
    const others = options.private ? 0o077 : 0o022;
    if (myUid() !== undefined && (st.mode & others) !== 0) {
      const who = options.private ? 'others may use it (not 0700)' : 'others may write in it';
      throw new OwnFileError(path, who);
    }
  } catch (err) {
    await fh.close().catch(() => undefined);
    throw err;
  }
  const anchor = `/proc/self/fd/${fh.fd}`;
  const anchored = process.platform === 'linux' && existsSync(anchor);
  return {
    path,
    at: (name) => join(anchored ? anchor : given, name),
    close: () => fh.close(),
  };
}

/** Where a file this program made lies, so that only that file is ever removed under its name. */
export interface Made {
  dev: number;
  ino: number;
}

/**
 * Removes `path` when it is the file this program made (`made`: the same device and inode, this user's
 * own regular file), or, without `made`, this user's own regular file or link left from before; returns
 * whether it did. Anything else at the name (another inode, another user's, a folder) is left alone: with
 * `made` silently, as someone else's by now; without, refused in one line.
 */
export async function removeOwnFile(path: string, made?: Made): Promise<boolean> {
  let st: Stats;
  try {
    st = await lstat(path);
  } catch (err) {
    if (code(err) === 'ENOENT') return false;
    throw await refusal(path, err);
  }
  if (made) {
    const uid = myUid();
    if (!st.isFile() || st.dev !== made.dev || st.ino !== made.ino || (uid !== undefined && st.uid !== uid))
      return false;
  } else {
    if (!st.isFile() && !st.isSymbolicLink()) throw new OwnFileError(path, `it is ${kind(st)}, not a regular file`);
    checkOwner(st, path);
  }
  try {
    await unlink(path);
    return true;
  } catch (err) {
    if (code(err) === 'ENOENT') return false;
    throw await refusal(path, err);
  }
}
