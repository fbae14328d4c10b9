/**
 * A timestamp in milliseconds since the epoch. The seed does not say whether `createdAt` counts seconds
 * or milliseconds: a value below 10^11 is read as seconds (10^11 ms is 1973; 10^11 s is the year 5138).
 * Only for showing and comparing: what is sent back to the server is never changed.
 */
export function epochMs(t: unknown): number | undefined {
  if (typeof t !== 'number' || !Number.isFinite(t)) return undefined;
  return Math.abs(t) < 1e11 ? t * 1000 : t;
}
