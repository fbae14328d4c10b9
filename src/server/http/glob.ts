/**
 * Whether `text` matches `glob`, where `*` matches any characters (`/` included) and everything else
 * itself. Never a regular expression: a glob comes from a request or a flag, and a backtracking matcher
 * over `*a*a*a*b` and a long path takes exponential time. Each part between two stars is found at its
 * leftmost place after the previous one (leftmost is always safe when `*` is the only wildcard), so the
 * cost is one indexOf per part: linear in the text and the glob.
 */
export function globMatch(glob: string, text: string): boolean {
  const parts = glob.split('*');
  if (parts.length === 1) return glob === text;
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (first.length + last.length > text.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i];
    if (part === '') continue;
    const found = text.indexOf(part, at);
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}
