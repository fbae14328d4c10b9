import type { ReadWarning } from '../../core/problems.js';
import { rangeKindOf, sexOf } from '../../core/words.js';
import type { Rec } from '../json/record.js';
import { fillRangeCell, readCell } from './cell-read.js';
import { COLUMN_OF, type ColumnMap } from './cells.js';
import { headerKey, LIMIT_COLUMNS, RANGE_CELL, RANGE_COLUMNS } from './columns.js';

// `--column "Low="` leaves a column out. A row whose left-out cell holds part of a range that the row's own
// reading lacks (no column read on it gave the same) has its range read wider than the sheet wrote it, or
// loses a critical limit: a warning of the row's measure naming the cell. What the cell holds is read as its
// column would be; one that reads as nothing (empty, a note in words) or as what its absence means (a Range
// type of reference, a Gender of all, an age from 0) loses nothing.

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
  const quiet = () => {};
  if (field === 'range') {
    const kind = rangeKindOf(text);
    return kind === 'panic' && read.kind !== 'panic';
  }
  if (field === 'sex') return (sexOf(text) ?? 'all') !== 'all' && !holds('sex');
  if (field === RANGE_CELL) {
    let unread = false;
    const given = fillRangeCell({}, text, { kind: 'reference', ...row }, () => {
      unread = true;
    });
    return !unread && given.some((r) => Object.keys(r).some((k) => FIELDS.has(k) && !holds(k)));
  }
  if (field === 'ageMin' || field === 'ageMax')
    return /\d/.test(text) && !(field === 'ageMin' && Number.parseFloat(text) === 0) && !holds(field);
  // A bound or a critical limit, in the lab's signs (`<2.5` on a panic row or in a critical low cell).
  const value = readCell(field, text.replace(/^[<>≤≥]\s*/, ''), row.semicolon, quiet);
  if (value === undefined) return false;
  if (field === 'criticalLow' || field === 'criticalHigh')
    return read.limits?.[field === 'criticalLow' ? 'min' : 'max'] === undefined;
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
