// String helpers for text from a flag, a file or a peer, each one pass: the regular expressions they
// replace backtrack (`/\/+$/` tries every run of slashes), so a long input froze the process.

/** `path` without its trailing slashes, in one pass: `/\/+$/` backtracks on a long run of slashes. */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  return end === path.length ? path : path.slice(0, end);
}
