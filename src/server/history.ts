import type { StoredRecord } from './journal.js';

/**
 * Drops the oldest records of a map (by createdAt, then id) until `keep` remain; 0 keeps all. Serve's
 * history of notifications stays bounded this way, one fold at a time (`--keep-notifications`).
 */
export function trimOldest(map: Map<string, StoredRecord>, keep: number): number {
  if (keep <= 0 || map.size <= keep) return 0;
  const time = (r: StoredRecord) => (typeof r.createdAt === 'number' ? r.createdAt : 0);
  const oldest = Array.from(map.values())
    .sort((a, b) => time(a) - time(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, map.size - keep);
  for (const r of oldest) map.delete(r.id);
  return oldest.length;
}
