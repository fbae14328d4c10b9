import { newestFirst } from '../../resources/time.js';
import type { StoredRecord } from './records.js';

/**
 * Drops records of a map until `keep` remain: those kept are the first `keep` of the list's one order
 * (newestFirst: by createdAt, ties by id); 0 keeps all. Serve's history of notifications stays bounded
 * this way, one fold at a time (`--keep-notifications`).
 */
export function trimOldest(map: Map<string, StoredRecord>, keep: number): number {
  if (keep <= 0 || map.size <= keep) return 0;
  const dropped = Array.from(map.values()).sort(newestFirst).slice(keep);
  for (const r of dropped) map.delete(r.id);
  return dropped.length;
}
