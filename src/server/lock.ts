import { open, readFile, unlink } from 'node:fs/promises';
import { DataFileError } from './data-file.js';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Locks this process holds, so a second store in the same process is refused too. */
const held = new Set<string>();

/**
 * Takes `<data>.lock` holding our pid, so two servers never write one file.
 * A lock whose process is gone (a killed server) is taken over.
 */
export async function acquireLock(dataFile: string): Promise<() => Promise<void>> {
  const path = `${dataFile}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fh = await open(path, 'wx', 0o600);
      await fh.writeFile(`${process.pid}\n`);
      await fh.close();
      held.add(path);
      return async () => {
        held.delete(path);
        await unlink(path).catch(() => undefined);
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new DataFileError(`cannot create lock file ${path}: ${(err as Error).message}`);
      }
    }
    const pid = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
    // Our own pid in a lock we do not hold is a stale lock from before a restart that reused it.
    const ours = pid === process.pid;
    if (Number.isInteger(pid) && pid > 0 && (ours ? held.has(path) : isAlive(pid))) {
      throw new DataFileError(`${dataFile} is in use by another clinadmin serve (process ${pid}); stop it first`);
    }
    await unlink(path).catch(() => undefined);
  }
  throw new DataFileError(`cannot take the lock ${path}; remove it if no server is running`);
}
