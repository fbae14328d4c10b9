import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../files/atomic.js';
import { COLLECTIONS } from '../schemas/data-file.js';
import { readDataFile, serializeDataFile } from './data-file.js';
import type { StoredRecord } from './journal.js';
import type { State } from './store.js';

/** What the list of snapshots says of each: its name, when it was taken, and what it holds. */
export interface SnapshotInfo {
  name: string;
  createdAt: number;
  measures: number;
  coverages: number;
  notifications: number;
}

/** A name that stays inside the folder: letters, digits, `.`, `_`, `-`, never `..`, at most 64. */
export const isSnapshotName = (name: string) => /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name) && !name.includes('..');

/**
 * `<data file>.snapshots/`, beside the data file so snapshots last as long as it does: states in `data/`,
 * what the list says of them in `meta/`, each file named by the snapshot alone. A name holds no `/`, so no
 * name can reach another snapshot's file (`a.meta` and `a`'s meta were once one file).
 */
const folderOf = (dataFile: string) => `${dataFile}.snapshots`;
const dataOf = (dataFile: string, name: string) => join(folderOf(dataFile), 'data', `${name}.json`);
const metaOf = (dataFile: string, name: string) => join(folderOf(dataFile), 'meta', `${name}.json`);

/**
 * Saves a state under a name: `data/NAME.json`, a data file of its own, then `meta/NAME.json`, each written
 * whole (temp file, fsync, rename). A snapshot exists once its meta does, so a crash between the two leaves none.
 */
export async function saveSnapshot(dataFile: string, name: string, state: State): Promise<SnapshotInfo> {
  for (const sub of ['data', 'meta']) await mkdir(join(folderOf(dataFile), sub), { recursive: true, mode: 0o700 });
  const info: SnapshotInfo = {
    name,
    createdAt: Date.now(),
    measures: state.diagnosticMeasures.length,
    coverages: state.insuranceCoverages.length,
    notifications: state.notifications.length,
  };
  await writeFileAtomic(dataOf(dataFile, name), serializeDataFile(state), 0o600);
  await writeFileAtomic(metaOf(dataFile, name), `${JSON.stringify(info)}\n`, 0o600);
  return info;
}

/** Every snapshot, by name. */
export async function listSnapshots(dataFile: string): Promise<SnapshotInfo[]> {
  const folder = join(folderOf(dataFile), 'meta');
  const files = await readdir(folder).catch(() => [] as string[]);
  // Only names a snapshot may have: a temp file of a save in flight is not one.
  const metas = files.filter((f) => f.endsWith('.json') && isSnapshotName(f.slice(0, -5))).sort();
  return Promise.all(metas.map(async (f) => JSON.parse(await readFile(join(folder, f), 'utf8'))));
}

/** A snapshot's state, checked as a data file is; undefined when there is none of that name. */
export async function readSnapshot(dataFile: string, name: string): Promise<State | undefined> {
  const meta = await readFile(metaOf(dataFile, name)).catch(() => undefined);
  if (!meta) return undefined;
  const data = await readDataFile(dataOf(dataFile, name));
  if (!data) return undefined;
  return Object.fromEntries(COLLECTIONS.map((c) => [c, (data[c] ?? []) as StoredRecord[]])) as State;
}
