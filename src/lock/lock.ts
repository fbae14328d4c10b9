import { readlinkSync } from 'node:fs';
import { type FileHandle, link, lstat, rename, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { openOwnFile } from '../files/own-file.js';

/** Who holds a lock: written into the lock file before it exists under its name. */
interface LockOwner {
  pid: number;
  host: string;
  since: number;
  /** The holder's PID namespace (Linux: `pid:[4026531836]`): its pid means something only within it. */
  ns?: string;
}

/**
 * The holder touches its lock file this often; a lock whose file has not been touched for STALE_MS is
 * stale, whoever wrote it (as proper-lockfile does). A pid alone proves nothing across containers that
 * share a volume and a hostname but not a PID namespace.
 */
const HEARTBEAT_MS = 2_000;
const STALE_MS = 10_000;

/** This process's PID namespace, or undefined where there is none to read. */
const PID_NS = (() => {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
})();

/** ` on HOST` for an owner on another host, else nothing. */
export const elsewhere = (owner: LockOwner) => (owner.host === hostname() ? '' : ` on ${owner.host}`);

/** The lock is held by a process that is still running (or that cannot be proven gone). */
export class LockHeldError extends Error {
  override name = 'LockHeldError';
  constructor(
    readonly path: string,
    readonly owner: LockOwner | undefined,
  ) {
    super(`${path} is held by process ${owner?.pid ?? '(unknown)'}${owner ? elsewhere(owner) : ''}`);
  }
}

export interface LockOptions {
  /** How long to wait for a live owner to let go (config writes); 0 refuses at once (a second server). */
  waitMs?: number;
}

/** Locks this process holds, so a lock file naming our own pid is known to be ours or stale. */
const held = new Set<string>();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Whether the owner is provably gone: its heartbeat stopped (the file untouched for STALE_MS), or, for an
 * owner in our own PID namespace on this host, no process with its pid (or our pid, not held by us). A lock
 * that does not say its namespace (clinadmin before 0.2) is judged by its pid on this host, as then.
 */
function provablyGone(owner: LockOwner | undefined, path: string, touched: number): boolean {
  if (!owner) return false;
  if (Date.now() - touched > STALE_MS && owner.ns !== undefined) return true;
  if (owner.host !== hostname() || (owner.ns !== undefined && owner.ns !== PID_NS)) return false;
  if (owner.pid === process.pid) return !held.has(path);
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function readOwner(
  path: string,
): Promise<{ owner: LockOwner | undefined; ino: number; touched: number } | undefined> {
  // Never through a link, never waiting on a FIFO, never another user's: a lock planted in a shared folder
  // is refused by name (own-file.ts) rather than trusted, taken over or waited on.
  const fh = await openOwnFile(path, 'read');
  if (!fh) return undefined;
  try {
    // Content and inode from one open file: read by path, a takeover in between could pair a stale
    // owner with the new lock's inode, and the new lock would be taken over as if it were stale.
    const [text, st] = await Promise.all([fh.readFile('utf8'), fh.stat()]);
    let owner: LockOwner | undefined;
    if (/^\d+\n?$/.test(text)) {
      // Written by clinadmin before 0.2: a bare pid, always of this host.
      owner = { pid: Number.parseInt(text, 10), host: hostname(), since: 0 };
    } else {
      try {
        const o = JSON.parse(text) as LockOwner;
        if (Number.isInteger(o.pid) && o.pid > 0 && typeof o.host === 'string') owner = o;
      } catch {
        owner = undefined; // not ours, or damaged: never provably gone, so never taken over
      }
    }
    return { owner, ino: st.ino, touched: st.mtimeMs };
  } finally {
    await fh.close();
  }
}

/**
 * Takes the lock file `path` atomically with its owner already written (a temp file linked into place,
 * so no reader ever sees it empty). A lock whose owner is provably gone is taken over through a gate
 * named after the stale file's inode: of several processes that find the same stale lock, exactly one
 * replaces it. Resolves with the release function.
 */
export async function acquireLock(path: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  const me: LockOwner = { pid: process.pid, host: hostname(), since: Date.now(), ...(PID_NS ? { ns: PID_NS } : {}) };
  const record = `${JSON.stringify(me)}\n`;
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const deadline = Date.now() + (options.waitMs ?? 0);
  const fh = await writeNew(tmp, record);
  let kept = false;
  try {
    for (let attempt = 0; ; attempt++) {
      const linked = await link(tmp, path).then(
        () => true,
        (err: NodeJS.ErrnoException) => {
          if (err.code !== 'EEXIST') throw err;
          return false;
        },
      );
      if (linked) {
        kept = true;
        return await owned(path, fh);
      }
      const current = await readOwner(path);
      if (!current) continue; // released between our link and our read: try again
      if (!provablyGone(current.owner, path, current.touched)) {
        if (Date.now() >= deadline) throw new LockHeldError(path, current.owner);
        await sleep(Math.min(10 * 2 ** Math.min(attempt, 5), 200));
        continue;
      }
      const taken = await takeOver(path, tmp, record, current.ino);
      if (taken !== undefined) return await owned(path, taken);
      await sleep(5 + Math.random() * 10);
    }
  } finally {
    if (!kept) await fh.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
  }
}

/** A new file holding `text`, made exclusively (never through a link), kept open for the heartbeat. */
async function writeNew(path: string, text: string): Promise<FileHandle> {
  const fh = await openOwnFile(path, 'create');
  try {
    await fh.writeFile(text);
    return fh;
  } catch (err) {
    await fh.close();
    await unlink(path).catch(() => undefined);
    throw err;
  }
}

/** Replaces the stale lock instance `ino` with ours, if this process wins its gate; the new file, or undefined. */
async function takeOver(path: string, tmp: string, record: string, ino: number): Promise<FileHandle | undefined> {
  const gate = `${path}.takeover-${ino}`;
  try {
    await link(tmp, gate);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another process is taking this instance over; a gate left by one that died is cleared.
    const g = await readOwner(gate);
    if (g && provablyGone(g.owner, gate, g.touched)) await unlink(gate).catch(() => undefined);
    return undefined;
  }
  try {
    // Only a holder of this instance's gate may replace it, so it is still the stale one if its inode is.
    const now = await lstat(path).catch(() => undefined);
    if (now?.ino !== ino) return undefined;
    const fresh = `${tmp}.new`;
    const fh = await writeNew(fresh, record);
    try {
      await rename(fresh, path);
    } catch (err) {
      await fh.close();
      await unlink(fresh).catch(() => undefined);
      throw err;
    }
    return fh;
  } finally {
    await unlink(gate).catch(() => undefined);
  }
}

/** The lock at `path`, held: `fh` is its file, open, touched through the descriptor (never the name). */
async function owned(path: string, fh: FileHandle): Promise<() => Promise<void>> {
  const { ino } = await fh.stat();
  held.add(path);
  // The heartbeat: touched while held, so others know the holder lives whatever its pid means to them.
  const beat = setInterval(() => {
    const now = new Date();
    fh.utimes(now, now).catch(() => undefined);
  }, HEARTBEAT_MS);
  beat.unref();
  return async () => {
    clearInterval(beat);
    held.delete(path);
    await fh.close().catch(() => undefined);
    // Only our own instance is removed: a lock taken over after we were presumed gone is not ours.
    const now = await lstat(path).catch(() => undefined);
    if (now?.ino === ino) await unlink(path).catch(() => undefined);
  };
}
