import type { Column } from './columns.js';
import { displayWidth } from './text.js';

// How a list's columns share a line's width: who narrows first, how far, and who is left out.

export const GAP = '  ';
const MIN_WIDTH = 8;

/** The columns a lead text (a notification's title) keeps while the others narrow: 30 characters and `…`. */
export const LEAD_WIDTH = 31;
/** What a lead text keeps before the other columns narrow to their headers. */
const LEAD_ROOM = 50;
/** How far the other columns narrow for a lead text. */
const LEAD_OTHERS = 4;

/**
 * Fits a line to `total` columns. Free text (a name, a title) is narrowed first, widest first, to 12;
 * then the widest of the rest, down to its header, and then to 8. An id is never cut. When a column is
 * the lead (the title of a notification), it is narrowed to LEAD_ROOM, the others (not the id, nor a time,
 * which has a short form instead) to their headers (a list to `least`, its first name and the count), the
 * lead to LEAD_WIDTH, a list to its header, the others before it down to 4, and only then the lead itself
 * to 12. With
 * `keepLead` that last step is not taken: the writer leaves out columns (and says so) before it.
 */
export function fitWidths(
  widths: number[],
  columns: Column[],
  total: number,
  keepLead = false,
  least: number[] = [],
): number[] {
  const out = [...widths];
  const line = () => out.reduce((a, b) => a + b, 0) + GAP.length * (out.length - 1);
  const narrow = (floor: (i: number) => number, eligible: (i: number) => boolean) => {
    while (line() > total) {
      let widest = -1;
      for (let i = 0; i < out.length; i++) {
        if (!eligible(i) || out[i] <= floor(i)) continue;
        if (widest < 0 || out[i] > out[widest]) widest = i;
      }
      if (widest < 0) return;
      // Narrow it as far as the line needs, but not past the next widest: ties then narrow together.
      const next = Math.max(floor(widest), ...out.filter((w, i) => i !== widest && eligible(i) && w < out[widest]));
      out[widest] = Math.max(next, out[widest] - (line() - total));
    }
  };
  const free = (i: number) => columns[i].free === true;
  const lead = (i: number) => columns[i].lead === true;
  // A column with a form of its own for less room (a list: `acc_a +2`) narrows to its header alone.
  const header = (i: number) =>
    Math.min(widths[i], Math.max(columns[i].fit ? 0 : MIN_WIDTH, displayWidth(columns[i].header)));
  if (columns.some((c) => c.lead)) {
    const other = (i: number) => columns[i].key !== 'id' && !free(i) && columns[i].short === undefined;
    narrow(
      (i) => Math.min(12, widths[i]),
      (i) => free(i) && !lead(i),
    );
    narrow((i) => Math.min(LEAD_ROOM, widths[i]), lead);
    // A list keeps a name (`acc_lab_maria +2`) while the title has more than its own room.
    narrow((i) => Math.max(header(i), Math.min(widths[i], least[i] ?? 0)), other);
    narrow((i) => Math.min(LEAD_WIDTH, widths[i]), lead);
    narrow(header, other);
    // Only those before the title (type, code) go below their headers; those after it are left out first.
    const first = columns.findIndex((c) => c.lead);
    narrow(
      (i) => Math.min(widths[i], LEAD_OTHERS),
      (i) => other(i) && i < first,
    );
    if (!keepLead) narrow((i) => Math.min(12, widths[i]), lead);
    return out;
  }
  narrow((i) => Math.min(12, widths[i]), free);
  const other = (i: number) => columns[i].key !== 'id' && !free(i);
  narrow(header, other);
  narrow((i) => Math.min(widths[i], MIN_WIDTH), other);
  return out;
}

/**
 * Rows after the first are not measured, so free text may take what room the line has left (up to
 * 40 columns) before it is cut, for a longer name further down; such a row runs a little out of
 * line rather than lose its end. Without a width (a pipe) nothing is ever cut.
 */
export function roomFor(widths: number[], natural: number[], columns: Column[], total: number): number[] {
  if (!Number.isFinite(total)) return widths.map(() => Number.POSITIVE_INFINITY);
  const out = [...widths];
  let room = total - (out.reduce((a, b) => a + b, 0) + GAP.length * (out.length - 1));
  for (let i = 0; i < out.length && room > 0; i++) {
    // A column already cut to fit has no room to give; a whole one may take some for later rows.
    if (!columns[i].free || out[i] < natural[i] || out[i] >= 40) continue;
    const more = Math.min(room, 40 - out[i]);
    out[i] += more;
    room -= more;
  }
  return out;
}

/**
 * Which columns a line too wide leaves out, first to last: from the right; with a lead (a title), those on
 * its right, then those before it that were cut to 4 (the code, the type), then a list on its right (SEEN
 * BY, which `-o wide` is asked for), and never the id or the lead.
 */
export function dropOrder(columns: Column[], lead: number): number[] {
  const fromRight = columns.map((_, i) => i).reverse();
  if (lead < 0) return fromRight.filter((i) => i > 1);
  const spare = (i: number) => columns[i].key !== 'id' && i !== lead;
  const before = (i: number) => i < lead && spare(i) && !columns[i].free && columns[i].short === undefined;
  return [
    ...fromRight.filter((i) => i > lead && !columns[i].fit),
    ...fromRight.filter(before),
    ...fromRight.filter((i) => i > lead && columns[i].fit),
    ...fromRight.filter((i) => spare(i) && i < lead && !before(i)),
  ];
}
