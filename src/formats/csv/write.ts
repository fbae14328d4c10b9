import { withAgeText } from '../../core/ages.js';
import { plainDecimal } from '../../core/number.js';
import type { Rec } from '../json/record.js';
import { CSV_COLUMNS, joinList, LISTS, PRECISION_OF } from './cells.js';
import { MEASURE_COLUMNS as MEASURE, RANGE_COLUMNS as RANGE } from './columns.js';
import { csvQuoted, guardFormula } from './formula.js';

// A measure catalog written as a sheet (csv/catalog.ts describes the format and reads it back).

/** A range's ages as the CSV writes them, in the lab's notation (ages.ts withAgeText), decimal commas with `;`. */
function ageCells(r: Rec, delimiter: string): Rec {
  const t = withAgeText(r);
  const comma = (v: unknown) => (delimiter === ';' && typeof v === 'string' ? v.replace('.', ',') : v);
  return { ...t, ageMin: comma(t.ageMin), ageMax: comma(t.ageMax) };
}

/**
 * The catalog as CSV, measures in the order given. `delimiter` `;` also writes decimal commas, as Excel reads
 * them in the locales that use `;`.
 */
export function catalogCsv(measures: Rec[], delimiter: ',' | ';' | '\t' = ','): string {
  // A number in plain digits (never 1e-7, which no sheet reader takes for a number), a bound at its precision.
  const cell = (v: unknown, column: string, precision?: unknown): string => {
    if (v === undefined || v === null) return '';
    let s: string;
    if (column === 'section') s = JSON.stringify(v);
    else if (LISTS.has(column) && Array.isArray(v)) s = joinList(v);
    else if (typeof v === 'number') s = plainDecimal(v, typeof precision === 'number' ? precision : 0);
    else s = String(v);
    if (typeof v === 'number' && delimiter === ';') s = s.replace('.', ',');
    if (typeof v !== 'number') s = guardFormula(s);
    return csvQuoted(s, delimiter);
  };
  const lines = [CSV_COLUMNS.join(delimiter)];
  for (const m of measures) {
    const own = MEASURE.map((c) => cell(m[c], c));
    const ranges = [
      ...((m.referenceRanges as Rec[] | undefined) ?? []).map((r) => ['reference', r] as const),
      ...((m.panicRanges as Rec[] | undefined) ?? []).map((r) => ['panic', r] as const),
    ];
    // A list left empty is written as its field empty; an absent one too: the same cell (docs/catalogs.md).
    if (ranges.length === 0) lines.push([...own, ...RANGE.map(() => '')].join(delimiter));
    for (const [kind, stored] of ranges) {
      const r = ageCells(stored, delimiter);
      const values = RANGE.map((c) =>
        c === 'range' ? kind : c === 'rangeId' ? cell(r.id, c) : cell(r[c], c, r[PRECISION_OF[c] ?? '']),
      );
      lines.push([...own, ...values].join(delimiter));
    }
  }
  return `\ufeff${lines.join('\r\n')}\r\n`;
}
