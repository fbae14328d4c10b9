// String helpers for text from a flag, a file or a peer, each one pass: the regular expressions they
// replace backtrack (`/\/+$/` tries every run of slashes), so a long input froze the process.

/** `path` without its trailing slashes, in one pass: `/\/+$/` backtracks on a long run of slashes. */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  return end === path.length ? path : path.slice(0, end);
}

/** A count and its noun in agreement: `1 contract`, `2 contracts` (every noun we count takes an s). */
export const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** FNV-1a over the key's UTF-16 code units: a small integer, so a set of 100,000 stays small. */
export function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h | 0;
}
