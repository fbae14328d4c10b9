import { randomBytes } from 'node:crypto';
import { rename, unlink } from 'node:fs/promises';
import { openOwnFile, removeOwnFile } from '../files/own-file.js';

/**
 * `serve --ready-file PATH`: `{"url", "pid"}` once serve answers, so a job can start serve in the background
 * and wait on the file. Written whole through the one door to side files (a new temp name, made exclusively,
 * no link followed, judged as this user's own), then renamed over PATH: a reader sees no file or the whole one,
 * and a link planted at PATH is replaced, never written through.
 */
export async function writeReadyFile(path: string, ready: { url: string; pid: number }): Promise<void> {
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fh = await openOwnFile(tmp, 'create');
    try {
      await fh.writeFile(`${JSON.stringify(ready)}\n`);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/** A ready file left by an earlier serve goes before this one starts, so nobody waits on a stale one. */
export const removeReadyFile = removeOwnFile;
