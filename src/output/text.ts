// Text from a server, made safe and measured for a terminal.
import stringWidth from 'string-width';

// C0 and C1 controls (but tab and newline, handled by the callers), DEL, and the bidirectional
// overrides and isolates that can make text read in a different order than it is stored.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text as it may reach a terminal: every control character shown as a visible escape (`\u001b`), so
 * a name can never move the cursor, retitle the window or hide text. `oneLine` also turns newlines
 * and tabs into spaces (a list cell); otherwise they stay (a describe view).
 */
export function visible(s: string, oneLine = false): string {
  const safe = s.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return oneLine ? safe.replace(/[\t\r\n]+/g, ' ') : safe.replace(/\r/g, '\\u000d');
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Columns a string takes at a terminal, as string-width counts them (East Asian wide characters and
 * emoji two, combining marks and zero-width ones none, escape sequences none).
 */
export function displayWidth(s: string): number {
  // Most cells are plain ASCII: their width is their length (a table of 100,000 rows asks a million times).
  return PRINTABLE_ASCII.test(s) ? s.length : stringWidth(s);
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Cut to `width` columns with `…` when longer (plain text: cells are cut before they are colored). */
export function cut(s: string, width: number): string {
  if (displayWidth(s) <= width) return s;
  let out = '';
  let w = 0;
  // By grapheme, so an emoji sequence or a letter with its marks is kept whole or cut whole.
  for (const { segment: ch } of graphemes.segment(s)) {
    const cw = displayWidth(ch);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

/** Padded with spaces to `width` columns. */
export const pad = (s: string, width: number) => s + ' '.repeat(Math.max(0, width - displayWidth(s)));

/**
 * The width views lay out to: the terminal's columns; when it reports none or 0, COLUMNS; else 80.
 * In a pipe, COLUMNS or no limit.
 */
export function layoutWidth(stream: { isTTY?: boolean; columns?: number }, env: Record<string, string | undefined>) {
  const fromEnv = Number(env.COLUMNS);
  const columns = Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : undefined;
  if (stream.isTTY) return stream.columns && stream.columns > 0 ? stream.columns : (columns ?? 80);
  return columns ?? Number.POSITIVE_INFINITY;
}

/** Breaks text at spaces so no line is wider than the terminal. */
export function wrap(text: string, width: number, indent = ''): string {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && indent.length + line.length + 1 + word.length > width) {
        out.push(indent + line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    out.push(indent + line);
  }
  return out.join('\n');
}
