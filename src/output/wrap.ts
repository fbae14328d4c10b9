import { displayWidth } from './text.js';

/** The column a line's continuation goes under: an option's or a command's description, an example's command. */
function hangingIndent(line: string): string {
  const column = /^\s*\$ /.exec(line)?.[0] ?? /^\s+\S.*?\s{2,}(?=\S)/.exec(line)?.[0] ?? /^\s*/.exec(line)![0];
  return ' '.repeat(displayWidth(column));
}

/** The pieces of a line between the spaces it may break at: none inside a `code span` (when they pair up). */
function pieces(rest: string): string[] {
  const spans = (rest.match(/`/g)?.length ?? 0) % 2 === 0;
  const out: string[] = [];
  let piece = '';
  let code = false;
  for (const ch of rest) {
    if (ch === '`' && spans) code = !code;
    if (ch === ' ' && !code) {
      out.push(piece);
      piece = '';
    } else piece += ch;
  }
  out.push(piece);
  return out;
}

/**
 * Text fitted to `width` columns, measured as a terminal draws it (displayWidth: East Asian wide
 * characters two, combining marks none, our color escapes nothing): a line wider than that breaks at its
 * last space that fits, never inside a word nor inside a `code span`, and goes on under the description
 * of an option or command ("  --flag <x>  text"), under the command of an example ("  $ clinadmin …"),
 * else under the line's own indent. A word wider than the line is left whole: it is never cut. The one
 * wrapper: help, help topics, and the bodies `notifications show` and `browse` lay out.
 */
export function wrapText(text: string, width: number): string {
  if (!Number.isFinite(width)) return text;
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (displayWidth(line) <= width) {
      out.push(line);
      continue;
    }
    const lead = /^\s*/.exec(line)![0];
    const hanging = hangingIndent(line);
    // A description column too far right for the width to hold much text: under the line's indent instead.
    const indent = hanging.length <= width / 2 ? hanging : lead;
    let current = lead;
    let used = displayWidth(lead);
    // An example's closing `# comment` goes whole onto a line of its own when it must; when it is too
    // long even for that, each line it goes on to starts with `#` again, so no line of it reads as a command.
    const comment = /^\s*\$ /.test(line) ? / {2,}(# .*)$/.exec(line) : null;
    const body = comment ? line.slice(lead.length, comment.index) : line.slice(lead.length);
    const whole = comment !== null && displayWidth(comment[1]) <= width - indent.length;
    const parts = [...pieces(body), ...(comment ? (whole ? ['', comment[1]] : ['', ...comment[1].split(' ')]) : [])];
    const commentAt = comment ? parts.length - (whole ? 1 : comment[1].split(' ').length) : parts.length;
    parts.forEach((piece, i) => {
      const w = displayWidth(piece);
      if (i > 0 && piece !== '' && used + 1 + w > width) {
        out.push(current.trimEnd());
        const mark = i > commentAt ? '# ' : '';
        current = indent + mark + piece;
        used = indent.length + mark.length + w;
      } else {
        current += i > 0 ? ` ${piece}` : piece;
        used += (i > 0 ? 1 : 0) + w;
      }
    });
    out.push(current.trimEnd());
  }
  return out.join('\n');
}
