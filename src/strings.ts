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
