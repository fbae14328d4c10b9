import { randomBytes } from 'node:crypto';
import { link, lstat, stat, unlink } from 'node:fs/promises';
import { type Made, OwnFileError, openOwnFile, removeOwnFile } from '../files/own-file.js';

/** More than any ready file holds: a file larger is something else, and is not read whole to tell. */
const MOST = 4096;

/**
 * `serve --ready-file PATH`: `{"url", "pid"}` once serve answers, so a job can start serve in the background
 * and wait on the file. Written whole through the one door to side files (a new temp name, made exclusively,
 * no link followed, judged as this user's own), then linked in at PATH, which a file put there since the
 * start (clearReadyFile) makes fail rather than be replaced: a reader sees no file or the whole one. Returns
 * where the file lies, so the stop removes this file and never one another serve wrote at the name since.
 */
export async function writeReadyFile(path: string, ready: { url: string; pid: number }): Promise<Made> {
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fh = await openOwnFile(tmp, 'create');
    let made: Made;
    try {
      await fh.writeFile(`${JSON.stringify(ready)}\n`);
      await fh.sync();
      const st = await fh.stat();
      made = { dev: st.dev, ino: st.ino };
    } finally {
      await fh.close();
    }
    try {
      await link(tmp, path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      throw new OwnFileError(path, 'something was put there since serve started, and is left alone');
    }
    return made;
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

/** Whether a file's text is a ready file as writeReadyFile writes it, or empty (a name made to be waited on). */
function isReadyText(text: string): boolean {
  if (text.trim() === '') return true;
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === 'object' && Object.keys(v).join() === 'url,pid';
  } catch {
    return false;
  }
}

/** The pid a ready file names when that process still runs (EPERM: another user's, running too). */
function runningServe(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const pid = (JSON.parse(text) as { pid: unknown }).pid;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}

/**
 * A ready file left by an earlier serve goes before this one starts, so nobody waits on a stale one; so does
 * an empty file or a link of this user's (only the link's name goes). Anything else at PATH (another user's,
 * a folder, a file holding other text, the ready file of a serve whose pid still runs) is refused in one
 * line and left alone.
 */
export async function clearReadyFile(path: string): Promise<void> {
  const st = await lstat(path).catch(() => undefined);
  if (st === undefined || st.isSymbolicLink()) {
    await removeOwnFile(path);
    return;
  }
  const fh = await openOwnFile(path, 'read');
  if (fh === undefined) return;
  let made: Made;
  try {
    const opened = await fh.stat();
    const text = opened.size > MOST ? '' : await fh.readFile('utf8');
    if (opened.size > MOST || !isReadyText(text))
      throw new OwnFileError(path, 'it holds something other than a ready file, and is left alone');
    // A job waiting on it would be sent to this serve's data instead of the one it started.
    const running = runningServe(text);
    if (running !== undefined)
      throw new Error(
        `${path} is the ready file of serve ${running}, which is still running: ` +
          'give this serve a ready file of its own',
      );
    made = { dev: opened.dev, ino: opened.ino };
  } finally {
    await fh.close();
  }
  await removeOwnFile(path, made);
}

/** Which of `others` (label, path) names the same file as `path`, by its name or its inode; undefined: none. */
export async function sameFileAs(path: string, others: [string, string][]): Promise<string | undefined> {
  const mine = await stat(path).catch(() => undefined);
  for (const [label, other] of others) {
    if (other === path) return label;
    const st = mine && (await stat(other).catch(() => undefined));
    if (st && mine && st.dev === mine.dev && st.ino === mine.ino) return label;
  }
  return undefined;
}
