import { nearest } from '../../core/nearest.js';
import { type Decimal, writtenPrecision } from '../../core/number.js';
import type { ReadProblem, ReadWarning } from '../../core/problems.js';
import { UsageError } from '../../errors.js';
import type { Rec } from '../json/record.js';
import {
  COLUMN_WORDS,
  headerKey,
  LIMIT_COLUMNS,
  MEASURE_COLUMNS as MEASURE,
  RANGE_COLUMNS as RANGE,
  RANGE_CELL,
} from './columns.js';

// What each column of a catalog sheet holds and how its cells are named, listed and numbered: shared by the
// sheet's reader (csv/catalog.ts) and writer (csv/write.ts).

export const CSV_COLUMNS: readonly string[] = [...MEASURE, ...RANGE];
/** Each column a header may name, by its key (headerKey): the fields, the critical limits, the lab's words. */
export const COLUMN_OF = new Map<string, string>([
  ...[...CSV_COLUMNS, ...LIMIT_COLUMNS, RANGE_CELL].map((c) => [headerKey(c), c] as const),
  ...Object.entries(COLUMN_WORDS).map(([word, c]) => [headerKey(word), c] as const),
]);
/** The headers a guess may offer, as written. */
export const HEADERS = [...CSV_COLUMNS, ...Object.keys(COLUMN_WORDS)];
export const LISTS = new Set(['sets', 'choices']);
export const AGES = new Set(['ageMin', 'ageMax']);
/** Every bound and precision of a range, and the breakdown limits, are numbers; the other cells are text. */
export const NUMBERS = new Set<string>([
  'numericBreakdownMin',
  'numericBreakdownMax',
  ...RANGE.filter((c) => c !== 'range' && c !== 'sex' && c !== 'rangeId' && !AGES.has(c)),
  ...LIMIT_COLUMNS,
]);
/** Each limit cell, with its partner and its side: `<2.5` belongs in a low one, `>6.5` in a high one. */
export const LIMIT_PAIRS: Readonly<Record<string, [string, 'low' | 'high']>> = {
  min: ['max', 'low'],
  max: ['min', 'high'],
  simin: ['simax', 'low'],
  simax: ['simin', 'high'],
  criticalLow: ['criticalHigh', 'low'],
  criticalHigh: ['criticalLow', 'high'],
};

/** Each bound of a range and the field that holds its precision. */
const BOUND_PRECISION = [
  ['min', 'minPrecision'],
  ['max', 'maxPrecision'],
  ['simin', 'siminPrecision'],
  ['simax', 'simaxPrecision'],
] as const;
export const PRECISIONS = new Set<string>(BOUND_PRECISION.map(([, p]) => p));
export const PRECISION_OF: Partial<Record<string, string>> = Object.fromEntries(BOUND_PRECISION);

export const isDecimal = (v: unknown): v is Decimal =>
  v !== null && typeof v === 'object' && 'decimals' in v && typeof (v as Decimal).value === 'number';

/**
 * A range's cells read as numbers become their values; a bound keeps the decimals it was written with (`8.0`
 * sets minPrecision 1) unless its precision cell says otherwise.
 */
export function keepPrecision(range: Rec): void {
  for (const [bound, precision] of BOUND_PRECISION) {
    const b = range[bound];
    if (isDecimal(b) && range[precision] === undefined) {
      const written = writtenPrecision(b);
      if (written !== undefined) range[precision] = written;
    }
  }
  for (const [k, v] of Object.entries(range)) if (isDecimal(v)) range[k] = v.value;
}

/** A list joined with `|`; a `|` or `\` inside an item escaped with `\`. */
export const joinList = (items: unknown[]) => items.map((i) => String(i).replace(/[\\|]/g, (c) => `\\${c}`)).join('|');

export function splitList(cell: string): string[] {
  const out: string[] = [];
  let item = '';
  for (let i = 0; i < cell.length; i++) {
    if (cell[i] === '\\' && i + 1 < cell.length) item += cell[++i];
    else if (cell[i] === '|') {
      out.push(item);
      item = '';
    } else item += cell[i];
  }
  out.push(item);
  return out;
}

/** A measure read from a sheet, as records.ts's SourceRecord has it (declared apart: records.ts imports the reader). */
export interface SheetRecord {
  source: string;
  position: number;
  line: number;
  value: Rec;
  cellOf: (path: string) => { place: string; line: number; column: number } | undefined;
  problems?: ReadProblem[];
  fileProblems?: ReadProblem[];
  warnings?: ReadWarning[];
  moreWarnings?: number;
  moreProblems?: number;
  unread?: string[];
  carrier: 'csv';
}

/** --column: a sheet's headers read as another field, or left out, by their key (headerKey), each as given. */
export class ColumnMap {
  constructor(private readonly map: ReadonlyMap<string, { field: string | null; given: string }>) {}

  /** The field a header is read as, null when it is left out, undefined when no --column names it. */
  field(header: string): string | null | undefined {
    return this.map.get(headerKey(header))?.field;
  }

  /**
   * Each --column naming no header of a sheet (`place` is its header line's), with the nearest header: a
   * misspelt one would otherwise leave the column it meant read as its own header says (a critical Low read
   * as the range's min).
   */
  unmatched(header: string[], place: string, line: number): ReadProblem[] {
    const keys = header.map((h) => headerKey(h.trim()));
    const out: ReadProblem[] = [];
    for (const [key, { given }] of this.map) {
      if (keys.includes(key)) continue;
      const guess = nearest(key, keys);
      const shown = guess === undefined ? undefined : header[keys.indexOf(guess)].trim();
      const text =
        `${place}: --column "${given.slice(0, 60)}" names no column of the sheet` +
        (key === '' ? ' (it has none without a header)' : shown ? `; did you mean "${shown.slice(0, 60)}"?` : '');
      out.push({ text, line, column: 0 });
    }
    return out;
  }
}

/**
 * --column's values: `Analyte=name` reads the column headed Analyte as the field name, `Comments=` leaves the
 * column headed Comments out, and `=` leaves out the columns with no header. A value that is not HEADER=FIELD,
 * a field no column holds (with the nearest guess) and a header given two ways are refused together, naming
 * each value.
 */
export function columnMap(values: readonly string[] | undefined): ColumnMap | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const out = new Map<string, { field: string | null; given: string }>();
  const problems: string[] = [];
  for (const v of values) {
    const shown = `--column "${v.slice(0, 60)}"`;
    // The last =, as headers hold one (OpenELIS's "Test name French (<=60 ch, OE)") and no field name does.
    const at = v.lastIndexOf('=');
    const [header, field] = at === -1 ? [v, undefined] : [v.slice(0, at).trim(), v.slice(at + 1).trim()];
    if (field === undefined) {
      problems.push(`${shown}: write HEADER=FIELD (Analyte=name), or HEADER= to leave it out`);
      continue;
    }
    // A sheet may leave several columns unheaded (OpenELIS's leaves two), so none of them can be told apart.
    if (header === '' && field !== '') {
      problems.push(`${shown}: the columns without a header can only be left out (--column "="); head the one to read`);
      continue;
    }
    const known = field === '' ? null : COLUMN_OF.get(headerKey(field));
    if (known === undefined) {
      const guess = nearest(headerKey(field), [...COLUMN_OF.keys()]);
      const word =
        guess === undefined
          ? undefined
          : [...HEADERS, ...LIMIT_COLUMNS, RANGE_CELL].find((w) => headerKey(w) === guess);
      problems.push(
        `${shown}: ${field.slice(0, 40)} is no column${word ? `; did you mean ${word}?` : ''} (clinadmin help csv)`,
      );
      continue;
    }
    const key = headerKey(header);
    const before = out.get(key);
    if (before !== undefined && before.field !== known)
      problems.push(
        `${shown}: the column is already read another way (--column "${before.given.slice(0, 60)}"); keep one`,
      );
    else if (before === undefined) out.set(key, { field: known, given: v });
  }
  if (problems.length === 1) throw new UsageError(problems[0]);
  if (problems.length > 1) throw new UsageError(`${problems.length} --column values are wrong`, '', problems);
  return new ColumnMap(out);
}
