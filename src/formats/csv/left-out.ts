import type { ReadWarning } from '../../core/problems.js';
import { rangeKindOf, sexOf } from '../../core/words.js';
import { COLUMN_OF, type ColumnMap } from './cells.js';
import { headerKey, LIMIT_COLUMNS, RANGE_CELL } from './columns.js';

// `--column "Low="` leaves a column out. A row that fills such a column with part of its range, where no
// column read on that row gives the same part, has its range read wider than the sheet wrote it (or loses a
// critical limit): a warning of the row's measure naming the cell. An empty cell loses nothing, and a sheet
// whose rows use Low and High on some rows and a Reference range cell on others is judged row by row.

/** A column left out that holds part of a range: its place in the row, its header, and the field it gives. */
export interface LeftOut {
  index: number;
  header: string;
  field: string;
}

/** Each range column, with the sets of columns any of which gives what it gives: a range cell gives both bounds. */
const STANDS_IN: Readonly<Record<string, readonly (readonly string[])[]>> = {
  min: [['min'], [RANGE_CELL]],
  max: [['max'], [RANGE_CELL]],
  [RANGE_CELL]: [['min', 'max']],
  ...Object.fromEntries(
    ['simin', 'simax', 'sex', 'ageMin', 'ageMax', 'range', ...LIMIT_COLUMNS].map((c) => [c, [[c]]]),
  ),
};

/** What a row loses without the column, where "read without" would not say it. */
const LOST: Readonly<Record<string, string>> = {
  range: 'the row is read as a reference range',
  sex: 'its range is read for every sex',
  criticalLow: 'its critical low limit is not read',
  criticalHigh: 'its critical high limit is not read',
  [RANGE_CELL]: 'its range is read without that cell',
};

/** The columns --column leaves out that hold part of a range, the first of each field (a header may repeat). */
export function leftOutOfRanges(header: string[], columns: ColumnMap | undefined): LeftOut[] {
  const out: LeftOut[] = [];
  header.forEach((h, index) => {
    const name = h.trim();
    const field = columns?.field(name) === null ? COLUMN_OF.get(headerKey(name)) : undefined;
    if (field === undefined || STANDS_IN[field] === undefined || out.some((o) => o.field === field)) return;
    out.push({ index, header: name, field });
  });
  return out;
}

/**
 * The warnings of one row: each left-out column it fills where no column read on the row gives the same part.
 * `filled` says whether a column read on the row holds a value; `row` names the row as its cells are named.
 */
export function rowLosses(
  leftOut: readonly LeftOut[],
  record: readonly string[],
  filled: (column: string) => boolean,
  row: { source: string; line: number; name: string },
): ReadWarning[] {
  const { source, line, name } = row;
  const out: ReadWarning[] = [];
  for (const { index, header, field } of leftOut) {
    const cell = (record[index] ?? '').trim();
    // An empty cell, or one saying what a row without the column is read as, loses nothing.
    if (
      cell === '' ||
      (field === 'range' && rangeKindOf(cell) === 'reference') ||
      (field === 'sex' && sexOf(cell) === 'all')
    )
      continue;
    if (STANDS_IN[field].some((set) => set.every(filled))) continue;
    const lost = LOST[field] ?? `its range is read without ${field}`;
    const left = `--column leaves "${header.slice(0, 60)}" out`;
    const text = `${source}:${line}:${index + 1}${name && ` (${name})`}: ${left}, though this row fills it: ${lost}`;
    out.push({ text, line, column: index + 1, field, message: `${left}, though line ${line} fills it: ${lost}` });
  }
  return out;
}
