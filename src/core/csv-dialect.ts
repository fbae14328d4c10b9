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
  ({ bom: true, delimiter, info: true, relax_column_count: true, skip_empty_lines: true }) as const;

/** The delimiter of a file named `source` whose text begins with `head`. */
export const sheetDelimiter = (head: string, source: string) => delimiterOf(head, /\.tsv$/i.test(source));

/** csv-parse's error, named by file and line. */
export function parseError(err: unknown, source: string): UsageError {
  const e = err as { lines?: number; message: string };
  return new UsageError(`${source}${e.lines ? `:${e.lines}` : ''}: ${e.message}`);
}
