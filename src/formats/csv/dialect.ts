import type { Options } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../../errors.js';

// How csv-parse reads a catalog sheet, whole or streamed: its delimiter, its options, its errors by file and line.

/** `;` when the header line has more of them than commas (Excel in most European locales), else `,`. */
function delimiterOf(text: string, tsv: boolean): ',' | ';' | '\t' {
  if (tsv) return '\t';
  // The first line that is not a comment (a line starting with #) is the header.
  const header =
    text
      .replace(/^\ufeff/, '')
      .split(/\r\n|\r|\n/)
      .find((l) => !l.startsWith('#')) ?? '';
  const count = (c: string) => header.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/** The options csv-parse reads a sheet with, whole or streamed. */
export const parseOptions = (delimiter: string): Options => ({
  bom: true,
  delimiter,
  // A row ends at CRLF, LF or CR alike, as Excel reads a file whose rows end in more than one way: a line
  // break outside quotes is never a cell's text (RFC 4180 2.6 puts those inside quotes).
  record_delimiter: ['\r\n', '\n', '\r'],
  relax_column_count: true,
  skip_empty_lines: true,
  // A line starting with # is a comment, before the header and between rows; a # inside a cell is text.
  comment: '#',
  comment_no_infix: true,
});

/** The delimiter of a file named `source` whose text begins with `head`. */
export const sheetDelimiter = (head: string, source: string) => delimiterOf(head, /\.tsv$/i.test(source));

/** What csv-parse tells of the rows it has read: its count of blank lines passed. */
interface ParseInfo {
  empty_lines: number;
  comment_lines?: number;
}

/** Line breaks in a cell, as an editor counts them: CRLF, LF or CR, each one (counted without a copy). */
function breaksIn(cell: string): number {
  let n = 0;
  for (let i = cell.indexOf('\n'); i >= 0; i = cell.indexOf('\n', i + 1)) n++;
  for (let i = cell.indexOf('\r'); i >= 0; i = cell.indexOf('\r', i + 1)) if (cell[i + 1] !== '\n') n++;
  return n;
}

/**
 * The line each row starts on, counted from the rows' own cells, as a person finds a row where it begins
 * (csv-parse's `lines` is the row's last line, and it counts a CRLF inside a quoted cell as two). Fed every
 * row in order, the header with them; `fault` names the row csv-parse could not read by where it starts.
 */
export function rowLines() {
  /** Line breaks before the next row: those inside the rows read, and each row's end. */
  let breaks = 0;
  return {
    start(record: string[], info: ParseInfo): number {
      const line = 1 + breaks + info.empty_lines + (info.comment_lines ?? 0);
      for (const cell of record) breaks += breaksIn(cell);
      breaks++;
      return line;
    },
    fault: (info: ParseInfo) => 1 + breaks + info.empty_lines + (info.comment_lines ?? 0),
  };
}

/**
 * csv-parse's error, named by file and the line its row starts on (by `lines`, which read the rows before it);
 * its own "at line N", which counts otherwise, is left out.
 */
export function parseError(err: unknown, source: string, lines?: ReturnType<typeof rowLines>): UsageError {
  const e = err as { lines?: number; empty_lines?: number; message: string };
  if (!e.lines) return new UsageError(`${source}: ${e.message}`);
  const line = lines && e.empty_lines !== undefined ? lines.fault(e as ParseInfo) : e.lines;
  return new UsageError(`${source}:${line}: ${e.message.replace(` at line ${e.lines}`, '')}`);
}

/** A whole sheet's rows, the header first, with the line each starts on; csv-parse's fault named by line. */
export function parseWhole(text: string, delimiter: string, source: string) {
  const lines = rowLines();
  const starts: number[] = [];
  try {
    const rows = parse(text, {
      ...parseOptions(delimiter),
      on_record: (record: string[], info) => {
        starts.push(lines.start(record, info));
        return record;
      },
    });
    return { rows, starts };
  } catch (err) {
    throw parseError(err, source, lines);
  }
}
