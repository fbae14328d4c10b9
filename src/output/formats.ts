import { jsonText, valueText } from '../core/number.js';
import { csvQuoted, guardFormula } from '../formats/csv/formula.js';

/** Plain serialisers: no dependency, so piping JSON costs no start-up. */

export function toJson(data: unknown): string {
  return `${jsonText(data, 2)}\n`;
}

export function toNdjson(data: unknown): string {
  const items = Array.isArray(data) ? data : [data];
  return items.map((d) => jsonText(d)).join('\n') + (items.length > 0 ? '\n' : '');
}

function csvCell(v: unknown): string {
  if (v === undefined || v === null) return '';
  let s = valueText(v);
  // The one rule against formula injection (formats/csv/formula.ts); a number such as -5 stays a number.
  if (typeof v !== 'number') s = guardFormula(s);
  return csvQuoted(s, ',');
}

/** One CSV line (without its CRLF) of the given values. */
export const csvRow = (values: unknown[]) => values.map(csvCell).join(',');

export function toCsv(rows: Record<string, unknown>[], keys: string[]): string {
  const lines = [csvRow(keys)];
  for (const r of rows) lines.push(csvRow(keys.map((k) => r[k])));
  return `${lines.join('\r\n')}\r\n`;
}
