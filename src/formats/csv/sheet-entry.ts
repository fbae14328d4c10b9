import type { ReadProblem, ReadWarning } from '../../core/problems.js';
import type { Rec } from '../json/record.js';

// A measure of a sheet as its rows are read (csv/catalog.ts reads them): what the rows gave, and where.

export type RangeList = 'referenceRanges' | 'panicRanges';

/** A measure as its rows are read: its record, the line each own field came from, and each range's line. */
export interface SheetEntry {
  rec: Rec;
  line: number;
  lines: Map<string, number>;
  /** Each range's line; with the columns its fields came from where they are not named as the fields. */
  rangeLines: Record<RangeList, (number | { line: number; columns: Record<string, string> })[]>;
  /** Its rows' cell errors (the first 50, then a count) and the ranges they left unread (`panicRanges[1]`). */
  problems: ReadProblem[];
  more: number;
  unread: string[];
  /** Its rows' cells that --column left out though they held part of a range (csv/left-out.ts), and a count. */
  warnings: ReadWarning[];
  moreWarnings: number;
}

/** A measure first seen on `line`, with nothing read yet. */
export function newEntry(line: number): SheetEntry {
  const rangeLines = { referenceRanges: [], panicRanges: [] };
  return {
    rec: {},
    line,
    lines: new Map(),
    rangeLines,
    problems: [],
    more: 0,
    unread: [],
    warnings: [],
    moreWarnings: 0,
  };
}

/** Adds a range to its measure's list; one with a bad cell is noted as not read whole. */
export function pushRange(
  m: SheetEntry,
  list: RangeList,
  range: Rec,
  line: number,
  bad: boolean,
  columns?: Record<string, string>,
): void {
  if (bad) m.unread.push(`${list}[${m.rangeLines[list].length}]`);
  m.rangeLines[list].push(columns ? { line, columns } : line);
  m.rec[list] ??= [];
  (m.rec[list] as Rec[]).push(range);
}
