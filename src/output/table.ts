import type { Column, View } from './columns.js';
import type { Theme } from './theme.js';

type Rec = Record<string, unknown>;

/** Fits the table to the terminal by narrowing the widest column first, so short columns stay whole. */
function widths(cells: string[][], total: number): number[] {
  const n = cells[0].length;
  const out = Array.from(
    { length: n },
    (_, i) => Math.max(...cells.map((row) => Math.max(...row[i].split('\n').map((l) => l.length)))) + 2,
  );
  const budget = total - (n + 1);
  let excess = out.reduce((a, b) => a + b, 0) - budget;
  while (excess > 0) {
    const widest = out.indexOf(Math.max(...out));
    if (out[widest] <= 8) break;
    out[widest]--;
    excess--;
  }
  return out;
}

/** A column's text; a value of a type the column does not expect (a newer or broken server) shows as its JSON. */
function cell(c: Column, r: Rec, view: View): string {
  try {
    return c.value(r, view);
  } catch {
    return JSON.stringify(r[c.key]) ?? '';
  }
}

export async function renderTable(
  rows: Rec[],
  columns: Column[],
  view: View,
  t: Theme,
  width: number,
): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const body = rows.map((r) => columns.map((c) => cell(c, r, view)));
  const head = columns.map((c) => c.header);
  const table = new Table({
    head: head.map((h) => t.bold(h)),
    colWidths: widths([head, ...body], width),
    wordWrap: true,
    wrapOnWordBoundary: true,
    style: { head: [], border: [] },
  });
  for (const row of body) table.push(row);
  return `${table.toString()}\n`;
}

/** One record as label/value lines, for `show`. */
export async function renderRecord(
  record: Rec,
  columns: Column[],
  view: View,
  t: Theme,
  width: number,
): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const rows = columns.filter((c) => record[c.key] !== undefined).map((c) => [c.header, cell(c, record, view)]);
  const known = new Set(columns.map((c) => c.key));
  for (const [k, v] of Object.entries(record))
    if (!known.has(k)) rows.push([k, typeof v === 'object' ? JSON.stringify(v) : String(v)]);
  if (rows.length === 0) return '';
  const table = new Table({
    colWidths: widths(rows, width),
    wordWrap: true,
    wrapOnWordBoundary: true,
    style: { head: [], border: [] },
  });
  for (const [label, value] of rows) table.push([t.bold(label), value]);
  return `${table.toString()}\n`;
}
