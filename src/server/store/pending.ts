import type { CollectionName } from '../../schemas/data-file.js';
import type { StoredRecord } from './records.js';

/** One change to one record: `after` undefined deletes; `before` lets a failed flush undo it. */
export interface Change {
  coll: CollectionName;
  id: string;
  before: StoredRecord | undefined;
  after: StoredRecord | undefined;
}

/** A commit, reset or settle() waiting for its flush. */
export interface Pending {
  changes: Change[];
  /** A reset: the whole state replaced, in one journal line; `before` undoes it if the line fails. */
  reset?: { line: string; before: Map<CollectionName, Map<string, StoredRecord>> };
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * Writes not yet on disk, counted by collection and by record, so a read never answers from a change a
 * crash could still undo: +1 when a change is made, -1 once its flush settles.
 */
export class PendingWrites {
  private readonly byColl = new Map<CollectionName, number>();
  private readonly byId = new Map<CollectionName, Map<string, number>>();

  count(changes: readonly { coll: CollectionName; id: string }[], delta: 1 | -1): void {
    for (const c of changes) {
      bump(this.byColl, c.coll, delta);
      let ids = this.byId.get(c.coll);
      if (!ids) {
        ids = new Map();
        this.byId.set(c.coll, ids);
      }
      bump(ids, c.id, delta);
    }
  }

  /** Whether a record (or any record of a collection) has a change that is not on disk yet. */
  has(coll: CollectionName, id?: string): boolean {
    return id === undefined ? this.byColl.has(coll) : (this.byId.get(coll)?.has(id) ?? false);
  }
}

function bump<K>(counts: Map<K, number>, key: K, delta: number): void {
  const n = (counts.get(key) ?? 0) + delta;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}
