import { COLLECTIONS, type CollectionName } from '../../schemas/data-file.js';
import type { JournalEntry as Replayed } from './journal.js';
import type { StoredRecord } from './records.js';
import { trimOldest } from './trim-oldest.js';

/** Every collection's records: a whole state, as a data file holds it. */
export type State = { [K in CollectionName]: StoredRecord[] };

/** A record as it was before a change not yet on disk: what taking that change back restores. */
interface Undo {
  coll: CollectionName;
  id: string;
  before: StoredRecord | undefined;
}

/** The collections in memory, by id: what serve reads from, and what a fold writes out. */
export class Collections {
  private maps = new Map<CollectionName, Map<string, StoredRecord>>();

  constructor() {
    for (const name of COLLECTIONS) this.maps.set(name, new Map());
  }

  list(coll: CollectionName): StoredRecord[] {
    return Array.from(this.maps.get(coll)!.values());
  }

  get(coll: CollectionName, id: string): StoredRecord | undefined {
    return this.maps.get(coll)!.get(id);
  }

  count(coll: CollectionName): number {
    return this.maps.get(coll)!.size;
  }

  /** Puts a record, or with `after` undefined deletes it. */
  set(coll: CollectionName, id: string, after: StoredRecord | undefined): void {
    const map = this.maps.get(coll)!;
    if (after === undefined) map.delete(id);
    else map.set(id, after);
  }

  /** Replaces every record with `state`; returns what was there, for restore(). */
  load(state: State): Map<CollectionName, Map<string, StoredRecord>> {
    const before = new Map(this.maps);
    for (const name of COLLECTIONS) this.maps.set(name, new Map((state[name] ?? []).map((r) => [r.id, r])));
    return before;
  }

  restore(saved: Map<CollectionName, Map<string, StoredRecord>>): void {
    for (const [coll, map] of saved) this.maps.set(coll, map);
  }

  /** A start: the data file's records, then each journalled change (or reset) over them, oldest first. */
  replay(data: Partial<Record<CollectionName, readonly unknown[]>> | undefined, changes: Iterable<Replayed>): void {
    for (const name of COLLECTIONS) for (const r of (data?.[name] ?? []) as StoredRecord[]) this.set(name, r.id, r);
    for (const c of changes) {
      if ('reset' in c) this.load(c.reset);
      else this.set(c.coll, c.id, c.after);
    }
  }

  /** Takes back writes that failed, newest first: each change to its `before`, each reset to what it replaced. */
  undo(
    failed: readonly { changes: readonly Undo[]; reset?: { before: Map<CollectionName, Map<string, StoredRecord>> } }[],
  ) {
    for (let i = failed.length - 1; i >= 0; i--) {
      const reset = failed[i].reset;
      if (reset) this.restore(reset.before);
      const changes = failed[i].changes;
      for (let j = changes.length - 1; j >= 0; j--) this.set(changes[j].coll, changes[j].id, changes[j].before);
    }
  }

  /** Drops the oldest notifications until `keep` remain (0 keeps all). */
  trimNotifications(keep: number): void {
    trimOldest(this.maps.get('notifications')!, keep);
  }

  /**
   * The records as flushed: a copy of the references (records are replaced, never changed in place),
   * with each change still queued (`queued`, oldest first) taken back, so a write that then fails never
   * reaches the data file.
   */
  acknowledged(queued: Iterable<Undo>): State {
    const before = new Map<CollectionName, Map<string, StoredRecord | undefined>>();
    for (const c of queued) {
      let ids = before.get(c.coll);
      if (!ids) {
        ids = new Map();
        before.set(c.coll, ids);
      }
      if (!ids.has(c.id)) ids.set(c.id, c.before);
    }
    return Object.fromEntries(
      COLLECTIONS.map((n) => {
        const map = this.maps.get(n)!;
        const undo = before.get(n);
        if (!undo) return [n, Array.from(map.values())];
        // One pass that takes the few queued changes back as it copies: copying the map first would hold
        // every request for a second copy of the collection.
        const records: StoredRecord[] = [];
        for (const [id, rec] of map) {
          if (!undo.has(id)) records.push(rec);
          else if (undo.get(id) !== undefined) records.push(undo.get(id)!);
        }
        // A record whose deletion is still queued is back too.
        for (const [id, rec] of undo) if (rec !== undefined && !map.has(id)) records.push(rec);
        return [n, records];
      }),
    ) as never;
  }
}
