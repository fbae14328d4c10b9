import { mkdtempSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEveryTest, ORDER } from './cleanup.js';

const made: string[] = [];

/** A fresh temporary folder, removed after the test. */
export async function tempDir(prefix = 'clinadmin-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** The same, made at once: for helpers that give each run folders of its own. */
export function tempDirSync(prefix = 'clinadmin-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

afterEveryTest(ORDER.folders, async () => {
  while (made.length > 0) await rm(made.pop()!, { recursive: true, force: true });
});
