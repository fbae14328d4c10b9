import type { ReadWarning } from '../../core/problems.js';
import { rangeKindOf, sexOf } from '../../core/words.js';
import type { Rec } from '../json/record.js';
import { fillRangeCell } from './cell-read.js';
import { COLUMN_OF, type ColumnMap } from './cells.js';
import { headerKey, LIMIT_COLUMNS, RANGE_CELL, RANGE_COLUMNS } from './columns.js';

// `--column "Low="` leaves a column out. A row whose left-out cell holds part of a range that the row's own
// reading lacks (no column read on it gave that part) has its range read wider than the sheet wrote it, or
// loses a critical limit: a warning of the row's measure naming the cell. A bound, an age or a limit is held
// by any cell with a digit in it, read or not (`3.5 mmol/L`, `'-2`, `0,5` would each have been read, or
// refused, had the column been kept); a range cell by the parts it reads as, or by both bounds where it does
// not read; a Range type and a Gender by their words. A cell with no digit (a note in words) or that says what
// its absence means (a Range type of reference, a Gender of all, an age from 0) loses nothing.

/** A column left out that holds part of a range: its place in the row, its header, and the field it gives. */
export interface LeftOut {
  index: number;
  header: string;
  field: string;
}

/** What a row's reading gave: its kind, the ranges of that kind, and the critical limits beside them. */
export interface RowRead {
  kind?: 'reference' | 'panic';
  main: Rec[];
  limits?: Rec;
}

/** The row as a cell of it is named and read: `file:line:column (name)`, and the unit a range cell is in. */
interface RowContext {
  source: string;
  line: number;
  name: string;
  semicolon: boolean;
  unit: unknown;
  unitColumn: boolean;
}

const FIELDS = new Set<string>([...RANGE_COLUMNS.filter((c) => !/Precision$|^rangeId$/.test(c)), ...LIMIT_COLUMNS]);

/** What a row loses without the column, where "read without" would not say it. */
const LOST: Readonly<Record<string, string>> = {
  range: 'the row is read as a reference range',
  sex: 'its range is read for every sex',
  criticalLow: 'its critical low limit is not read',
  criticalHigh: 'its critical high limit is not read',
  [RANGE_CELL]: 'its range is read without that cell',
};

/** Every column --column leaves out that holds part of a range (a header may give one field twice). */
export function leftOutOfRanges(header: string[], columns: ColumnMap | undefined): LeftOut[] {
  const out: LeftOut[] = [];
  header.forEach((h, index) => {
    const name = h.trim();
    const field = columns?.field(name) === null ? COLUMN_OF.get(headerKey(name)) : undefined;
    if (field !== undefined && (FIELDS.has(field) || field === RANGE_CELL)) out.push({ index, header: name, field });
  });
  return out;
}

/** Whether the left-out cell holds part of a range that what the row read lacks. */
function lost(field: string, text: string, read: RowRead, row: RowContext): boolean {
  const holds = (k: string, ranges = read.main) => ranges.some((r) => r[k] !== undefined && r[k] !== 'all');
  if (field === 'range') return rangeKindOf(text) === 'panic' && read.kind !== 'panic';
  if (field === 'sex') return (sexOf(text) ?? 'all') !== 'all' && !holds('sex');
  if (!/\d/.test(text)) return false;
  if (field === RANGE_CELL) {
    let unread = false;
    const given = fillRangeCell({}, text, { kind: 'reference', ...row }, () => {
      unread = true;
    });
    if (unread) return !(holds('min') && holds('max'));
    return given.some((r) => Object.keys(r).some((k) => FIELDS.has(k) && !holds(k)));
  }
  // An age from 0, in any unit (`0`, `0 d`, `0y`), is where a range without one starts.
  if (field === 'ageMin' && !/[1-9]/.test(text)) return false;
  if (field === 'criticalLow' || field === 'criticalHigh') {
    const end = field === 'criticalLow' ? 'min' : 'max';
    return read.limits?.[end] === undefined && !(read.kind === 'panic' && holds(end));
  }
  return !holds(field);
}

/** The warnings of one row: each field a left-out cell holds that the row's reading lacks, once a field. */
export function rowLosses(leftOut: readonly LeftOut[], record: readonly string[], read: RowRead, row: RowContext) {
  const out: ReadWarning[] = [];
  const { source, line, name } = row;
  for (const { index, header, field } of leftOut) {
    const cell = (record[index] ?? '').trim();
    if (cell === '' || out.some((w) => w.field === field) || !lost(field, cell, read, row)) continue;
    const nothing = read.main.length === 0 && read.limits === undefined;
    const what = nothing ? 'no range is read from the row' : (LOST[field] ?? `its range is read without ${field}`);
    const left = `--column leaves "${header.slice(0, 60)}" out`;
    const text = `${source}:${line}:${index + 1}${name && ` (${name})`}: ${left}, though this row fills it: ${what}`;
    out.push({ text, line, column: index + 1, field, message: `${left}, though line ${line} fills it: ${what}` });
  }
  return out;
}
