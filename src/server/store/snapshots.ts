import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../files/atomic.js';
import { type OwnFolder, openOwnFolder } from '../../files/own-file.js';
import { COLLECTIONS } from '../../schemas/data-file.js';
import { readDataFile, serializeDataFile } from './data-file.js';
import { migrateToFormat2 } from './migrate.js';
import type { StoredRecord } from './records.js';
import type { State } from './store.js';

/** What the list of snapshots says of each: its name, when it was taken, and what it holds. */
interface SnapshotInfo {
  name: string;
  createdAt: number;
  measures: number;
  coverages: number;
  notifications: number;
}

/** A name that stays inside the folder: what isSandboxName holds, in words for an error. */
export const NAME_RULE = 'letters, digits, ".", "_" and "-" (at most 64, no "..")';
/** A snapshot's name, and a request log mark's, which takes the same rule. */
export const isSandboxName = (name: string) => /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name) && !name.includes('..');

/**
 * `<data file>.snapshots/`, beside the data file so snapshots last as long as it does: states in `data/`,
 * what the list says of them in `meta/`, each file named by the snapshot alone. A name holds no `/`, so no
 * name can reach another snapshot's file (`a.meta` and `a`'s meta were once one file). Each folder is made
 * one level at a time and judged this user's own (own-file.ts), and reached through the one judged, as the
 * data file's folder may be one others can write.
 */
const folderOf = (dataFile: string) => `${dataFile}.snapshots`;

/** Runs `use` on the snapshots' `data/` and `meta/` folders; undefined when they are not made and `make` is false. */
async function inFolders<T>(
  dataFile: string,
  make: boolean,
  use: (data: OwnFolder, meta: OwnFolder) => Promise<T>,
): Promise<T | undefined> {
  const opened: OwnFolder[] = [];
  try {
    const root = await openOwnFolder(folderOf(dataFile), { make });
    opened.push(root);
    for (const sub of ['data', 'meta'])
      opened.push(await openOwnFolder(root.at(sub), { make, label: join(root.path, sub) }));
    return await use(opened[1], opened[2]);
  } catch (err) {
    if (!make && (err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  } finally {
    for (const folder of opened.reverse()) await folder.close().catch(() => undefined);
  }
}

/**
 * Saves a state under a name: `data/NAME.json`, a data file of its own, then `meta/NAME.json`, each written
 * whole (temp file, fsync, rename). A snapshot exists once its meta does, so a crash between the two leaves none.
 */
export async function saveSnapshot(dataFile: string, name: string, state: State): Promise<SnapshotInfo> {
  const info: SnapshotInfo = {
    name,
    createdAt: Date.now(),
    measures: state.diagnosticMeasures.length,
    coverages: state.insuranceCoverages.length,
    notifications: state.notifications.length,
  };
  await inFolders(dataFile, true, async (data, meta) => {
    await writeFileAtomic(data.at(`${name}.json`), serializeDataFile(state), 0o600);
    await writeFileAtomic(meta.at(`${name}.json`), `${JSON.stringify(info)}\n`, 0o600);
  });
  return info;
}

/** Refuses a snapshots folder that is not this user's own (a link, a FIFO, another user's), if there is one. */
export async function checkSnapshotFolders(dataFile: string): Promise<void> {
  await inFolders(dataFile, false, async () => undefined);
}

/** Every snapshot, by name. */
export async function listSnapshots(dataFile: string): Promise<SnapshotInfo[]> {
  const infos = await inFolders(dataFile, false, async (_, meta) => {
    const files = await readdir(meta.at('.'));
    // Only names a snapshot may have: a temp file of a save in flight is not one.
    const metas = files.filter((f) => f.endsWith('.json') && isSandboxName(f.slice(0, -5))).sort();
    return Promise.all(metas.map(async (f) => JSON.parse(await readFile(meta.at(f), 'utf8')) as SnapshotInfo));
  });
  return infos ?? [];
}

/** A snapshot's state, checked as a data file is; undefined when there is none of that name. */
export async function readSnapshot(dataFile: string, name: string): Promise<State | undefined> {
  const data = await inFolders(dataFile, false, async (data, meta) => {
    const info = await readFile(meta.at(`${name}.json`)).catch(() => undefined);
    return info ? readDataFile(data.at(`${name}.json`)) : undefined;
  });
  if (!data) return undefined;
  // A snapshot saved in format 1 reads as format 2 (the same move as the data file's at start).
  if (data.formatVersion === undefined) migrateToFormat2(data);
  return Object.fromEntries(COLLECTIONS.map((c) => [c, (data[c] ?? []) as StoredRecord[]])) as State;
}
