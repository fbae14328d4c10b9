import { parse } from 'csv-parse/sync';
import { UsageError } from '../errors.js';

// How csv-parse reads a catalog sheet, whole or streamed: its delimiter, its options, its errors by file and line.

/** `;` when the header line has more of them than commas (Excel in most European locales), else `,`. */
function delimiterOf(text: string, tsv: boolean): ',' | ';' | '\t' {
  if (tsv) return '\t';
  const header = text.replace(/^\ufeff/, '').split(/\r?\n/, 1)[0] ?? '';
  const count = (c: string) => header.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/** The options csv-parse reads a sheet with, whole or streamed. */
export const parseOptions = (delimiter: string) =>
  ({ bom: true, delimiter, relax_column_count: true, skip_empty_lines: true }) as const;

/** The delimiter of a file named `source` whose text begins with `head`. */
export const sheetDelimiter = (head: string, source: string) => delimiterOf(head, /\.tsv$/i.test(source));

/** What csv-parse tells of the rows it has read: its count of blank lines passed, and of lines. */
interface ParseInfo {
  empty_lines: number;
  lines?: number;
}

/** Line breaks in a cell, as an editor counts them: CRLF, LF or CR, each one. */
const BREAK = /\r\n|\r|\n/g;

/**
 * The line each row starts on, counted from the rows' own cells: a person finds a row where it begins, and
 * csv-parse's `lines` is the row's last line, with a CRLF inside a quoted cell counted as two (csv-parse
 * 7.0.3 counts CR and LF each there). Fed every row in order, the header with them.
 */
export function rowLines() {
  /** Line breaks before the next row: those inside the rows read, and each row's end. */
  let breaks = 0;
  /** How many lines csv-parse has counted beyond the file's own, so far. */
  let over = 0;
  return {
    start(record: string[], info: ParseInfo): number {
      const line = 1 + breaks + info.empty_lines;
      for (const cell of record) {
        if (!cell.includes('\n') && !cell.includes('\r')) continue;
        breaks += cell.match(BREAK)?.length ?? 0;
        over += cell.split('\r\n').length - 1;
      }
      breaks++;
      return line;
    },
    /** csv-parse's line of a fault, less what it over-counted in the rows before it. */
    fault: (lines: number) => lines - over,
  };
}

/** csv-parse's error, named by file and line (corrected by `lines`, which read the rows before it). */
export function parseError(err: unknown, source: string, lines?: ReturnType<typeof rowLines>): UsageError {
  const e = err as { lines?: number; message: string };
  if (!e.lines) return new UsageError(`${source}: ${e.message}`);
  const line = lines ? lines.fault(e.lines) : e.lines;
  // csv-parse's message names the line too: it is told the same line as the prefix.
  return new UsageError(`${source}:${line}: ${e.message.replace(`at line ${e.lines}`, `at line ${line}`)}`);
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
