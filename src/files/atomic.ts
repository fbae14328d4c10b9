import { open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a whole file or nothing: a temp file beside it, fsync, rename over the old one, fsync of the
 * folder. A reader sees the old file or the new one, never half of one, even after a crash. The text may
 * come in pieces (an import's report of 100,000 records), so it need not be held whole.
 */
export async function writeFileAtomic(path: string, text: string | AsyncIterable<string>, mode = 0o644): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  // A file written before keeps its mode (a report made owner-only stays so); a new one gets `mode`.
  const kept = await stat(path).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  // A refusal names the file asked for, not the temp file beside it (its folder is the same).
  const fh = await open(tmp, 'wx', kept ?? mode).catch((err: NodeJS.ErrnoException) => {
    throw Object.assign(err, { path });
  });
  try {
    if (kept !== undefined) await fh.chmod(kept);
    if (typeof text === 'string') await fh.writeFile(text);
    else for await (const piece of text) await fh.write(piece);
    await fh.sync();
  } catch (err) {
    await fh.close();
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fh.close();
  try {
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  // The rename itself is made durable by syncing the folder; not every file system allows it.
  const dir = await open(dirname(path), 'r').catch(() => undefined);
  if (dir)
    await dir
      .sync()
      .catch(() => undefined)
      .finally(() => dir.close());
}
