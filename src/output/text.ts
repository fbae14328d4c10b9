// Text from a server, made safe and measured for a terminal.

// C0 and C1 controls (but tab and newline, handled by the callers), DEL, the line and paragraph separators
// (U+2028, U+2029: a line break to many readers), and every Unicode format
// character (category Cf: zero-width spaces, bidi overrides and isolates, the word joiner, soft hyphen),
// which can make text read in a different order than it is stored or two names look the same. The
// joiners keep their place where a script or an emoji needs them: ZWJ between emoji, ZWNJ between letters.
// Half of a UTF-16 pair (category Cs, read as code points) has no bytes in UTF-8: shown as its escape, never as
// the U+FFFD a terminal would get, so two different broken names never look the same.
const CONTROL = new RegExp(
  [
    '\\u200d(?<!\\p{Extended_Pictographic}[\\u{fe0f}\\u{1f3fb}-\\u{1f3ff}]?\\u200d)',
    '\\u200d(?!\\p{Extended_Pictographic})',
    '\\u200c(?<!\\p{L}\\p{M}*\\u200c)',
    '\\u200c(?!\\p{L})',
    '(?![\\u200c\\u200d])[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u2028\\u2029\\p{Cf}\\p{Cs}]',
  ].join('|'),
  'gu',
);
const ANY_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}\p{Cs}]/u;
// The styles our theme writes (chalk at level 1: bold, dim, inverse, red, green, yellow, cyan and their
// ends): the only escape sequences the writer lets through, and only while colors are on.
const STYLE = /\u001b\[(?:1|2|7|22|27|31|32|33|36|39)m/y;

/** `\u001b`; beyond the BMP, as its two UTF-16 halves, so JSON text reads it back unchanged. */
const hex = (c: string) => {
  let out = '';
  for (let k = 0; k < c.length; k++) out += `\\u${c.charCodeAt(k).toString(16).padStart(4, '0')}`;
  return out;
};

/**
 * Text as it may reach a terminal: every control and format character shown as a visible escape
 * (`\u001b`, `\u200b`), so a name can never move the cursor, write the clipboard, retitle the window,
 * hide text or pass for another. `oneLine` also turns newlines and tabs into spaces (a list cell);
 * otherwise they stay (a describe view). `styled` keeps our theme's colors (the writer's case).
 * The escapes are plain ASCII, so escaping twice changes nothing, and in JSON text (where such a
 * character can only stand inside a string) the escape reads back as the same character.
 */
export function visible(s: string, oneLine = false, styled = false): string {
  if (plainText(s, oneLine)) return s;
  let safe = s;
  // A plain class first: most text holds none, and it scans several times faster than CONTROL.
  if (ANY_CONTROL.test(s)) {
    CONTROL.lastIndex = 0;
    safe = s.replace(CONTROL, (c, at: number) => {
      if (styled && c === '\u001b') {
        STYLE.lastIndex = at;
        if (STYLE.test(s)) return c;
      }
      return hex(c);
    });
  }
  return oneLine ? safe.replace(/[\t\n]+/g, ' ') : safe;
}

/**
 * Text made only of printable ASCII, Latin-1 and Latin Extended letters (but the soft hyphen), and the
 * dashes, quotes and marks of General Punctuation (but its format characters), and, unless `oneLine`, tabs
 * and newlines: nothing to escape or join, the common case, told by a loop (a regular expression's own cost
 * dominates a short cell).
 */
function plainText(s: string, oneLine: boolean): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x20 && c <= 0x7e) || (!oneLine && (c === 0x0a || c === 0x09))) continue;
    if ((c >= 0xa0 && c <= 0x2ff && c !== 0xad) || (c >= 0x2010 && c <= 0x2027) || (c >= 0x2030 && c <= 0x205f))
      continue;
    return false;
  }
  return true;
}

/** Printable ASCII only (space to tilde): text that is safe on one line and as wide as it is long. */
function printableAscii(s: string): boolean {
  // A loop, not a regular expression: most cells are a few characters, where a match's own cost dominates.
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

// Our own colors: the only escape sequences the views write.
const ANSI = /\u001b\[[0-9;]*m/g;

// East Asian wide and fullwidth blocks: Hangul Jamo, CJK, Hangul syllables, compatibility forms.
const WIDE = new RegExp(
  '[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf' +
    '\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]',
);
// Combining marks, zero-width space and joiners, and the emoji presentation selector: no column.
const ZERO = /[\u0300-\u036f\u200b-\u200d]|\ufe0f/u;
const ZWJ = '\u200d';

let segmenter: Intl.Segmenter | undefined;
/** Graphemes, by ICU: made on first use only, as building a segmenter is a cost of start-up. */
function graphemes(s: string): Intl.Segments {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter.segment(s);
}

/** Columns of characters one by one: East Asian wide ones and those beyond the BMP (emoji) two, marks none. */
function charsWidth(s: string): number {
  let w = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Below the first combining mark, and the blocks between ZERO's and WIDE's ranges, every character
    // takes one column: the common case (a dash, a Latin accent, Greek, Cyrillic) needs no test.
    if (c < 0x300 || (c >= 0x370 && c < 0x1100) || (c >= 0x1160 && c < 0x2e80 && (c < 0x200b || c > 0x200d))) {
      w++;
      continue;
    }
    const ch = String.fromCodePoint(s.codePointAt(i) ?? c);
    if (ch.length === 2) i++;
    if (ZERO.test(ch)) continue;
    w += WIDE.test(ch) || ch.length === 2 ? 2 : 1;
  }
  return w;
}

/** A grapheme's columns: an emoji joined into one picture (👨‍👩‍👧, UTS #51) takes two, as its first does. */
const graphemeWidth = (g: string) =>
  g.includes(ZWJ) ? charsWidth(String.fromCodePoint(g.codePointAt(0)!)) : charsWidth(g);

/**
 * Columns a string takes at a terminal: East Asian wide characters and emoji two, combining marks and
 * joiners none, a joined emoji sequence two. Our own rather than string-width, which builds an ICU
 * segmenter and its width tables when loaded, a cost for every command that prints help or a table
 * (bench/notes.md); here only a string with a joiner reaches ICU.
 */
export function displayWidth(s: string): number {
  // Most cells are plain ASCII: their width is their length (a table of 100,000 rows asks a million times).
  if (printableAscii(s)) return s.length;
  const plain = s.includes('\u001b') ? s.replace(ANSI, '') : s;
  if (!plain.includes(ZWJ)) return charsWidth(plain);
  let w = 0;
  for (const { segment } of graphemes(plain)) w += graphemeWidth(segment);
  return w;
}

/**
 * Cut to `width` columns with `…` when longer (plain text: cells are cut before they are colored), by
 * grapheme, so a letter and its accent or a joined emoji is kept or cut whole.
 */
export function cut(s: string, width: number): string {
  if (displayWidth(s) <= width) return s;
  if (printableAscii(s)) return `${s.slice(0, Math.max(0, width - 1))}…`;
  let out = '';
  let w = 0;
  for (const { segment } of graphemes(s)) {
    const cw = graphemeWidth(segment);
    if (w + cw > width - 1) break;
    out += segment;
    w += cw;
  }
  return `${out}…`;
}

/** A line in pieces of at most `width` columns, none lost (a long URL in a pane that scrolls). */
export function chunks(s: string, width: number): string[] {
  if (displayWidth(s) <= width || width < 2) return [s];
  const out: string[] = [];
  let piece = '';
  let w = 0;
  for (const { segment } of graphemes(s)) {
    const cw = graphemeWidth(segment);
    if (w + cw > width && piece !== '') {
      out.push(piece);
      piece = '';
      w = 0;
    }
    piece += segment;
    w += cw;
  }
  out.push(piece);
  return out;
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

/**
 * The width help is laid out to, for a person whether or not it goes through a pipe (`| less`): the
 * terminal's (stdout's, else stderr's, which a pager leaves on the terminal), else COLUMNS, else 80.
 */
export function helpWidth(
  streams: readonly { isTTY?: boolean; columns?: number }[],
  env: Record<string, string | undefined>,
): number {
  for (const s of streams) if (s.isTTY && s.columns && s.columns > 0) return s.columns;
  const fromEnv = Number(env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80;
}
