import { shortTime } from './columns.js';
import { LEAD_WIDTH } from './fit.js';
import { cut, displayWidth } from './text.js';

/**
 * One arrival as `time  type  code  title  (id)` within `width` columns, the title first: a line too wide
 * gives up the year of its time (`11-27 04:17`), then the title keeps at least LEAD_WIDTH columns while
 * the code and the type are cut (see steps); the id a person copies stays whole, or, on a terminal too
 * narrow for it, is left out.
 */
export function watchLine(time: string, cells: [string, string, string], id: string, width: number): string {
  const widths = cells.map(displayWidth);
  let when = time;
  const total = () => displayWidth(when) + widths.reduce((a, b) => a + b + 2, 0) + displayWidth(id) + 4;
  if (total() > width) when = shortTime(time);
  // The order of a table's lead column (output/list.ts, fitWidths): the title to 50, the code and the type
  // to 8, the title to 30, the code and the type to 4, and only then the title to 12.
  const steps: [number, number][] = [
    [2, Math.min(50, widths[2])],
    [1, Math.min(8, widths[1])],
    [0, Math.min(8, widths[0])],
    [2, Math.min(LEAD_WIDTH, widths[2])],
    [1, Math.min(4, widths[1])],
    [0, Math.min(4, widths[0])],
    [2, Math.min(12, widths[2])],
  ];
  for (const [i, floor] of steps) if (total() > width) widths[i] = Math.max(floor, widths[i] - (total() - width));
  const line = `${when}  ${cells.map((c, i) => cut(c, widths[i])).join('  ')}`;
  // The id whole or not at all: a cut one is a wrong one when copied.
  return total() > width ? cut(line, width) : `${line}  (${id})`;
}
