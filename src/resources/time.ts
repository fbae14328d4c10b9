/**
 * A timestamp in milliseconds since the epoch. The seed does not say whether `createdAt` counts seconds
 * or milliseconds: a value below 10^11 is read as seconds (10^11 ms is 1973; 10^11 s is the year 5138).
 * Only for showing and comparing: what is sent back to the server is never changed.
 */
export function epochMs(t: unknown): number | undefined {
  if (typeof t !== 'number' || !Number.isFinite(t)) return undefined;
  return Math.abs(t) < 1e11 ? t * 1000 : t;
}

/**
 * The one order of notifications, newest first: by `createdAt` (seconds or milliseconds, as above), and
 * among those created in the same millisecond by id, the greater first. The list, watch, browse and the
 * server's `--keep-notifications` (which keeps the first N of this order) all use it, so what a fold
 * keeps is what the list showed on top, ties included.
 */
export function newestFirst(a: { id: string; createdAt?: unknown }, b: { id: string; createdAt?: unknown }): number {
  const t = (epochMs(b.createdAt) ?? 0) - (epochMs(a.createdAt) ?? 0);
  if (t !== 0) return t;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
