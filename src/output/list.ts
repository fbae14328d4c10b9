import type { OutStream } from '../context.js';
import { ShortIds } from '../core/short-ids.js';
import type { Rec } from '../formats/json/record.js';
import type { Column, View } from './columns.js';
import { dropOrder, fitWidths, GAP, roomFor } from './fit.js';
import { cut, displayWidth, visible } from './text.js';
import type { Theme } from './theme.js';

interface ListOptions {
  /** Columns to lay out to (Infinity: no limit, as in a pipe without COLUMNS). */
  width: number;
  /** Told which columns were left out because even narrowed they did not fit the width. */
  onDropped?: (headers: string[]) => void;
  headers: boolean;
  t: Theme;
  view: View;
  /** Every id fetched, when known beyond the rows shown: a long id's prefix is unique among them. */
  ids?: Iterable<string>;
}

/** Rows looked at to size the columns before the first is written: the first row shows at once. */
const SAMPLE = 200;
/** At most this long (ms) before the first rows are written, however few have come. */
const HOLD_MS = 200;

/** A column's text on one line, made safe; a value of a type the column does not expect shows as its JSON. */
export function cellText(c: Column, r: Rec, view: View): string {
  let text: string;
  try {
    text = c.value(r, view);
  } catch {
    text = JSON.stringify(r[c.key]) ?? '';
  }
  return visible(text, true);
}

/**
 * A list as kubectl and gh print one: a header row and aligned columns, one line per record, no
 * boxes. Columns are sized from the first rows, then every row is written as it comes, so the first
 * line shows before the last is formatted and the cost grows with the rows, no faster.
 */
export class ListWriter {
  /** Where each column's text is padded to: sized from the first rows. */
  private widths?: number[];
  /** Where each column's text is cut: the width, or more room for free text (see roomFor). */
  private limits: number[] = [];
  private held: string[][] = [];
  private heldSince = 0;
  private dropped: string[] = [];
  private timer?: NodeJS.Timeout;
  /** Per column, its short form when shown so (a time without its year), the line too wide for the long. */
  private shortened: (((text: string) => string) | undefined)[] = [];
  /** Long ids as their unique prefixes, at a width (a terminal): in a pipe an id stays whole. */
  private shortIds?: { at: number; ids: ShortIds };

  constructor(
    private readonly out: OutStream,
    private columns: Column[],
    private readonly o: ListOptions,
  ) {}

  /** Adds rows; false when the stream wants a pause (backpressure). */
  add(rows: Rec[]): boolean {
    const cells = rows.map((r) => this.columns.map((c) => cellText(c, r, this.o.view)));
    if (!this.widths) {
      // A piece of the answer that held no whole record (a slow network's first chunk) starts nothing.
      if (cells.length === 0) return true;
      if (this.held.length === 0) {
        // A list that trickles in is not held back for long to size its columns.
        this.heldSince = performance.now();
        this.timer = setTimeout(() => this.start(), HOLD_MS);
        this.timer.unref();
      }
      this.held.push(...cells);
      if (this.held.length < SAMPLE && performance.now() - this.heldSince < HOLD_MS) return true;
      return this.start();
    }
    return this.write(cells);
  }

  end(): void {
    if (!this.widths) this.start();
    // Said after the table, where it does not push the first rows down.
    if (this.dropped.length > 0) this.o.onDropped?.(this.dropped);
  }

  private start(): boolean {
    clearTimeout(this.timer);
    if (this.widths) return true;
    const at = this.columns.findIndex((c) => c.key === 'id');
    if (at >= 0 && Number.isFinite(this.o.width)) {
      this.shortIds = { at, ids: new ShortIds(this.o.ids ?? this.held.map((row) => row[at])) };
      this.held = this.held.map((row) => this.shortId(row));
    }
    // A column but free text is as wide as its widest value, or, on a line too wide, as all but the
    // widest tenth: one long value runs past its column (see line) rather than take the others' room.
    const measure = (spare = 0) =>
      this.columns.map((c, i) => {
        const values = this.held.map((row) => displayWidth(row[i])).sort((a, b) => b - a);
        const skip = c.free ? 0 : Math.min(spare, values.length - 1);
        return Math.max(this.o.headers ? displayWidth(c.header) : 0, values[skip] ?? 0);
      });
    let natural = measure();
    const line = (w: number[]) => w.reduce((a, b) => a + b, 0) + GAP.length * (w.length - 1);
    if (line(natural) > this.o.width) natural = measure(Math.floor(this.held.length / 10));
    // A line too wide gives up the year of its times first (`11-27 04:17`, still local time).
    if (line(natural) > this.o.width && this.columns.some((c) => c.short)) {
      this.shortened = this.columns.map((c) => c.short);
      this.held = this.held.map((row) => this.shorten(row));
      natural = measure(Math.floor(this.held.length / 10));
    }
    // Never a wrapped line: columns that do not fit even narrowed are left out, and said so.
    const lead = this.columns.findIndex((c) => c.lead);
    // A list's least width with a name in it: its widest `first +n` form.
    const least = this.columns.map((c, i) => (c.least ? Math.max(0, ...this.held.map((row) => c.least!(row[i]))) : 0));
    const order = dropOrder(this.columns, lead);
    let keep = this.columns.map((_, i) => i);
    const pick = <T>(all: T[], at = keep) => at.map((i) => all[i]);
    // While there are columns to leave out, the lead is not cut below LEAD_WIDTH.
    const fitted = (at: number[], left: boolean) =>
      fitWidths(pick(natural, at), pick(this.columns, at), this.o.width, lead >= 0 && left, pick(least, at));
    for (let k = 0; k < order.length && keep.length > 2; k++) {
      if (line(fitted(keep, true)) <= this.o.width) break;
      keep = keep.filter((i) => i !== order[k]);
    }
    this.dropped = this.columns.filter((_, i) => !keep.includes(i)).map((c) => c.header);
    this.held = this.held.map((row) => pick(row));
    if (this.shortened.length > 0) this.shortened = pick(this.shortened);
    if (this.shortIds) this.shortIds.at = keep.indexOf(this.shortIds.at);
    natural = pick(natural);
    this.widths = fitWidths(natural, pick(this.columns), this.o.width, false, pick(least));
    this.columns = pick(this.columns);
    this.limits = roomFor(this.widths, natural, this.columns, this.o.width);
    const lines: string[] = [];
    if (this.o.headers)
      lines.push(
        this.line(
          this.columns.map((c) => c.header),
          (s) => this.o.t.bold(s),
        ),
      );
    const rows = this.held;
    this.held = [];
    return this.write(rows, lines);
  }

  private shorten(row: string[]): string[] {
    return row.map((text, i) => this.shortened[i]?.(text) ?? text);
  }

  private shortId(row: string[]): string[] {
    if (!this.shortIds) return row;
    const { at, ids } = this.shortIds;
    return row.map((text, i) => (i === at ? ids.of(text) : text));
  }

  private write(rows: string[][], lines: string[] = []): boolean {
    for (const row of rows) lines.push(this.line(this.shortId(this.shortened.length > 0 ? this.shorten(row) : row)));
    return lines.length === 0 || this.out.write(`${lines.join('\n')}\n`);
  }

  private line(all: string[], style?: (s: string) => string): string {
    const widths = this.widths!;
    const last = Math.min(all.length, widths.length) - 1;
    let out = '';
    // Where the line is and where column i starts: a row with a longer id runs late, and the text after
    // it is cut by what the line has not to spare, so the line still ends within the width.
    let pos = 0;
    let start = 0;
    const spare = this.o.width - (widths.reduce((a, b) => a + b, 0) + GAP.length * (widths.length - 1));
    for (let i = 0; i <= last; i++) {
      const text = all[i];
      if (i > 0) {
        const gap = Math.max(GAP.length, start - pos);
        out += ' '.repeat(gap);
        pos += gap;
      }
      // Late past the room the line has spare: the cells after it give that up.
      const late = pos - start - Math.max(0, spare);
      const limit = late > 0 ? Math.max(1, this.limits[i] - late) : this.limits[i];
      let width = displayWidth(text);
      let shown = text;
      // An id is never cut: a row with a longer one runs past its column rather than lose it.
      if (width > limit && this.columns[i].key !== 'id') {
        shown = this.columns[i].fit?.(text, limit) ?? cut(text, limit);
        width = displayWidth(shown);
      }
      const toned = this.tone(i, shown);
      out += style ? style(toned) : toned;
      pos += width;
      start += widths[i] + GAP.length;
    }
    return out.trimEnd();
  }

  private tone(i: number, text: string): string {
    const tone = this.columns[i].tone?.(text);
    return tone ? this.o.t[tone](text) : text;
  }
}

/** A whole list at once (the rows are already held). */
export function renderList(out: OutStream, rows: Rec[], columns: Column[], o: ListOptions): void {
  const w = new ListWriter(out, columns, o);
  w.add(rows);
  w.end();
}
