import { valueText } from '../core/number.js';
import { formatCritical, formatRange, type RangeLike } from '../core/ranges.js';
import type { Rec } from '../formats/json/record.js';
import type { ColumnFormat, Resource } from '../resources/registry.js';
import { epochMs } from '../resources/time.js';
import { displayWidth } from './text.js';

type Tone = 'green' | 'yellow' | 'red' | 'dim';

export interface Column {
  key: string;
  header: string;
  /** The cell as plain text; views make it safe and color it. */
  value: (r: Rec, view: View) => string;
  /** Shown by default in a table. */
  shown?: boolean;
  /** A color for a cell's text at a terminal, if any. */
  tone?: (text: string) => Tone | undefined;
  /** Free text, narrowed first when a line is too wide (the registry's `free`). */
  free?: boolean;
  /** The text a line is read for: see the registry's `lead`. */
  lead?: boolean;
  /** A shorter form of the cell's text, used when the line is too wide (a time without its year). */
  short?: (text: string) => string;
  /** The record's field a derived column is drawn from, when it is not `key` (SEEN from seenBy). */
  field?: string;
  /** The cell made to fit `width` its own way, where `…` would cut it (a list, by whole names). */
  fit?: (text: string, width: number) => string;
  /** The least width at which `fit` still shows something of the cell itself (a list's first name). */
  least?: (text: string) => number;
}

export interface View {
  /** The current account, for "seen" marks. */
  account?: string;
}

const text = (key: string) => (r: Rec) => valueText(r[key]);
export const col = (key: string, header = key, shown = false): Column => ({ key, header, value: text(key), shown });

/** Columns named as their keys and all shown: for records without a column list of their own. */
export const textColumns = (keys: string[]): Column[] => keys.map((key) => col(key, key, true));

/** A timestamp as local time, to the minute; seconds or milliseconds (see resources/time.ts). */
export function localTime(t: unknown): string {
  const ms = epochMs(t);
  if (ms === undefined) return '';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

/** `3.5–5.1 mmol/L +2`: the first range, and how many more, in one cell. */
function rangesCell(r: Rec, key: string): string {
  // Anything but a list of objects (a newer or broken server) shows as its JSON: see cellText.
  if (
    r[key] !== undefined &&
    (!Array.isArray(r[key]) || (r[key] as unknown[]).some((x) => typeof x !== 'object' || !x))
  )
    throw new TypeError('not a list of ranges');
  const ranges = asList(r[key]) as RangeLike[];
  if (ranges.length === 0) return '';
  const [first] = ranges;
  // Conventional bounds when there are any, else SI; who the range is for is in the describe view.
  const conventional = first.min !== undefined || first.max !== undefined;
  const bare = { min: first.min, max: first.max, minPrecision: first.minPrecision, maxPrecision: first.maxPrecision };
  // A panic range's bounds are critical limits: `< 2.5 or > 6.5`, not a span.
  const format =
    key === 'panicRanges' ? (x: RangeLike, u?: string, su?: string) => formatCritical(x, u, su, '') : formatRange;
  const shown = conventional
    ? format(bare, r.unit as string | undefined)
    : format(
        {
          simin: first.simin,
          simax: first.simax,
          siminPrecision: first.siminPrecision,
          simaxPrecision: first.simaxPrecision,
        },
        undefined,
        r.siunit as string | undefined,
      );
  return ranges.length > 1 ? `${shown} +${ranges.length - 1}` : shown;
}

/** How each registry column format draws its field. */
const FORMATS: Record<ColumnFormat, (key: string) => Column['value']> = {
  text,
  time: (key) => (r) => localTime(r[key]),
  ranges: (key) => (r) => rangesCell(r, key),
  'range-count': () => (r) => {
    const ref = asList(r.referenceRanges).length;
    const panic = asList(r.panicRanges).length;
    return ref + panic === 0 ? '' : `${ref} ref, ${panic} panic`;
  },
  amount: () => (r) =>
    [r.amount !== undefined ? String(r.amount) : '', r.percentage !== undefined ? `${r.percentage} %` : '']
      .filter(Boolean)
      .join(' + '),
  'applies-to': () => (r) => (r.ref ? `${r.refType ?? 'ref'}: ${r.ref}` : ''),
  seen: (key) => (r, view) =>
    view.account ? ((asList(r[key]) as string[]).includes(view.account) ? 'seen' : 'new') : '',
  list: (key) => (r) => asList(r[key]).map(String).join(', '),
  excerpt: (key) => (r) => (typeof r[key] === 'string' ? (r[key] as string).replace(/\s+/g, ' ').slice(0, 60) : ''),
};

const TONES: Partial<Record<ColumnFormat, Column['tone']>> = {
  seen: (t) => (t === 'seen' ? 'green' : t === 'new' ? 'yellow' : undefined),
};

/**
 * A list cell (`acc_a, acc_b, acc_c`) in `width`: the first names whole and how many more (`acc_a +2`), or
 * only how many (`+3`); never a name cut, which could read as another name or as the whole list.
 */
function fitList(text: string, width: number): string {
  const items = text.split(', ');
  for (let k = items.length - 1; k > 0; k--) {
    const shown = `${items.slice(0, k).join(', ')} +${items.length - k}`;
    if (displayWidth(shown) <= width) return shown;
  }
  return `+${items.length}`;
}

/** The width of a list cell's first name and the count of the rest (`acc_a +2`), or of the name alone. */
function listLeast(text: string): number {
  const items = text.split(', ');
  return displayWidth(items.length > 1 ? `${items[0]} +${items.length - 1}` : text);
}

/** `11-27 04:17`: a local time of localTime without its year, when a line has no room for it. */
export const shortTime = (text: string) => text.replace(/^\d{4}-/, '');

const column = (
  key: string,
  field: string,
  header: string,
  format: ColumnFormat,
  shown: boolean,
  free = false,
  lead = false,
): Column => ({
  key,
  header,
  shown,
  value: FORMATS[format](field),
  tone: TONES[format],
  free: free || lead,
  ...(lead ? { lead } : {}),
  ...(format === 'time' ? { short: shortTime } : {}),
  ...(format === 'list' ? { fit: fitList, least: listLeast } : {}),
  ...(field !== key ? { field } : {}),
});

const cache = new Map<Resource, Column[]>();

/** A resource's columns, in the registry's order. */
export function columnsOf(res: Resource): Column[] {
  let cols = cache.get(res);
  if (!cols) {
    cols = [
      ...Object.entries(res.fields).flatMap(([key, f]) =>
        f.header ? [column(key, key, f.header, f.format ?? 'text', f.shown ?? false, f.free, f.lead)] : [],
      ),
      ...(res.derived ?? []).map((d) => column(d.key, d.field, d.header, d.format, d.shown ?? false, d.free)),
    ];
    cache.set(res, cols);
  }
  return cols;
}

/** The columns of `-o wide`: the shown ones, then what the registry adds for it. */
export function wideColumnsOf(res: Resource): Column[] {
  const all = columnsOf(res);
  const byKey = new Map(all.map((c) => [c.key, c]));
  const extra = res.wide.map((w) =>
    typeof w === 'string' ? byKey.get(w)! : column(w.key, w.field, w.header, w.format, false, w.free),
  );
  // A column that shows a field whole takes the place of one drawn from it: SEEN BY names the accounts,
  // yours among them, so SEEN gives it its room.
  const whole = new Set(extra.map((c) => c.field ?? c.key));
  const shown = all.filter((c) => c.shown && !(c.field !== undefined && whole.has(c.field)));
  return [...shown, ...extra].map((c) => ({ ...c, shown: true }));
}
