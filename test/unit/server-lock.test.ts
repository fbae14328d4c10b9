import { access, chmod, mkdir, readdir, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type * as LockModule from '../../src/lock/lock.js';
import { lockDataFile } from '../../src/server/lock.js';
import { tempDir } from '../helpers/tmp.js';

// What happens in the instant between judging the runtime folder and taking a lock in it, when a test asks.
const between = vi.hoisted(() => ({
  once: undefined as ((path: string, lock: () => Promise<unknown>) => Promise<unknown>) | undefined,
}));
vi.mock('../../src/lock/lock.js', async (importOriginal) => {
  const real = await importOriginal<typeof LockModule>();
  return {
    ...real,
    acquireLock: (path: string, options?: LockModule.LockOptions) => {
      const hook = between.once;
      between.once = undefined;
      return hook ? hook(path, () => real.acquireLock(path, options)) : real.acquireLock(path, options);
    },
  };
});

// The runtime folder holds every server's lock by inode, and the last server out removes it. A server
// starting while others stop must still get its lock: the folder it just made may be removed again. Few
// servers make the race likely (the folder is often empty); many rounds make it happen: before the fix,
// about 1 in 20 of these locks failed or went without the runtime folder.

describe("serve's lock by inode in the runtime folder", () => {
  it('is taken by each of 3 servers starting and stopping together, 400 times each', async () => {
    const [data, runtimeDir] = [await tempDir('clinadmin-lockdata-'), await tempDir('clinadmin-runtime-')];
    const problems: string[] = [];
    await Promise.all(
      Array.from({ length: 3 }, async (_, n) => {
        const file = join(data, `data-${n}.json`);
        await writeFile(file, '{}');
        for (let round = 0; round < 400; round++) {
          try {
            const lock = await lockDataFile(file, file, { runtimeDir, warn: (m) => problems.push(m) });
            await lock.release();
          } catch (err) {
            problems.push((err as Error).message);
          }
        }
      }),
    );
    expect(problems).toEqual([]);
    // The last one out removed the folder.
    await expect(access(join(runtimeDir, 'clinadmin'))).rejects.toThrow(/ENOENT/);
  });

  it('passes over a runtime folder others may write (planted in /tmp), saying so, and locks by the file', async () => {
    const [data, runtimeDir] = [await tempDir('clinadmin-lockdata-'), await tempDir('clinadmin-runtime-')];
    const planted = join(runtimeDir, 'clinadmin');
    await mkdir(planted);
    await chmod(planted, 0o777);
    const file = join(data, 'data.json');
    await writeFile(file, '{}');
    const said: string[] = [];
    const lock = await lockDataFile(file, file, { runtimeDir, warn: (m) => said.push(m) });
    expect(said).toEqual([
      `${planted} is not a folder of this user's alone (0700); a hard link in another folder is not locked`,
    ]);
    expect(await readdir(planted)).toEqual([]);
    // The lock by path and the one by inode in the file's own folder still hold.
    expect((await readdir(data)).sort()).toEqual(expect.arrayContaining(['data.json', 'data.json.lock']));
    expect((await readdir(data)).some((f) => /^\.clinadmin-\d+-\d+\.lock$/.test(f))).toBe(true);
    await lock.release();
    expect(await readdir(data)).toEqual(['data.json']);
    expect(await readdir(planted)).toEqual([]);
  });

  it('judges a runtime folder made again: one planted just after the last server out is passed over', async () => {
    const [data, runtimeDir] = [await tempDir('clinadmin-lockdata-'), await tempDir('clinadmin-runtime-')];
    const folder = join(runtimeDir, 'clinadmin');
    const file = join(data, 'data.json');
    await writeFile(file, '{}');
    // The lock by path and the one in the file's folder come first; the third lock is the runtime folder's.
    let calls = 0;
    const hook = async (path: string, lock: () => Promise<unknown>): Promise<unknown> => {
      if (++calls < 3) {
        between.once = hook;
        return lock();
      }
      expect(dirname(path)).toBe(folder);
      // The last server out removes the folder; our lock then finds none, and another user makes it first.
      await rmdir(folder);
      const refused = await lock().catch((err: NodeJS.ErrnoException) => err);
      expect((refused as NodeJS.ErrnoException).code).toBe('ENOENT');
      await mkdir(folder);
      await chmod(folder, 0o777);
      throw refused;
    };
    between.once = hook;
    const said: string[] = [];
    const lock = await lockDataFile(file, file, { runtimeDir, warn: (m) => said.push(m) });
    expect(calls).toBe(3);
    expect(said).toEqual([
      `${folder} is not a folder of this user's alone (0700); a hard link in another folder is not locked`,
    ]);
    // Nothing of ours in the planted folder, while the lock is held or after.
    expect(await readdir(folder)).toEqual([]);
    await lock.release();
    expect(await readdir(folder)).toEqual([]);
  });
});
