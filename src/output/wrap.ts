/**
 * Help text fitted to the terminal: a line wider than `width` breaks at its last space that fits,
 * never inside a word, and goes on under the description of an option or command ("  --flag <x>  text"),
 * under the command of an example ("  $ clinadmin …"), else under the line's own indent.
 */
export function wrapText(text: string, width: number): string {
  if (!Number.isFinite(width)) return text;
  const out: string[] = [];
  for (const line of text.split('\n')) {
    let rest = line;
    const column = /^\s+\S.*?\s{2,}(?=\S)/.exec(line)?.[0] ?? /^\s*(\$ )?/.exec(line)?.[0] ?? '';
    const indent = ' '.repeat(column.length);
    while (rest.length > width) {
      const at = rest.lastIndexOf(' ', width);
      // A word longer than the line is left whole: it is never cut in the middle.
      if (at <= indent.length) break;
      out.push(rest.slice(0, at).trimEnd());
      rest = indent + rest.slice(at + 1).trimStart();
    }
    out.push(rest);
  }
  return out.join('\n');
}
