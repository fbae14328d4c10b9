import { formatRange, type RangeLike } from '../core/ranges.js';
import { epochMs } from '../core/time.js';
import type { ColumnFormat, Resource } from '../resources/registry.js';

type Rec = Record<string, unknown>;

export interface Column {
  key: string;
  header: string;
  value: (r: Rec, view: View) => string;
  /** Shown by default in a table. */
  shown?: boolean;
}

export interface View {
  account?: string;
  seenMark: (seen: boolean | undefined) => string;
}

const text = (key: string) => (r: Rec) =>
  r[key] === undefined || r[key] === null ? '' : typeof r[key] === 'object' ? JSON.stringify(r[key]) : String(r[key]);
export const col = (key: string, header = key, shown = false): Column => ({ key, header, value: text(key), shown });

/** Columns named as their keys and all shown: for records without a column list of their own. */
export const textColumns = (keys: string[]): Column[] => keys.map((key) => col(key, key, true));

/** A timestamp as local time, to the minute; seconds or milliseconds (see core/time.ts). */
export function localTime(t: unknown): string {
  const ms = epochMs(t);
  if (ms === undefined) return '';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

const rangesCell = (r: Rec, key: string) =>
  ((r[key] as RangeLike[] | undefined) ?? [])
    .map((x) => formatRange(x, r.unit as string | undefined, r.siunit as string | undefined))
    .join('\n');

/** How each registry column format draws its field. */
const FORMATS: Record<ColumnFormat, (key: string) => Column['value']> = {
  text,
  time: (key) => (r) => localTime(r[key]),
  ranges: (key) => (r) => rangesCell(r, key),
  amount: () => (r) =>
    [r.amount !== undefined ? String(r.amount) : '', r.percentage !== undefined ? `${r.percentage} %` : '']
      .filter(Boolean)
      .join(' + '),
  'applies-to': () => (r) => (r.ref ? `${r.refType ?? 'ref'}: ${r.ref}` : ''),
  seen: (key) => (r, view) =>
    view.seenMark(view.account ? ((r[key] as string[] | undefined) ?? []).includes(view.account) : undefined),
};

const cache = new Map<Resource, Column[]>();

/** A resource's columns, in the registry's order. */
export function columnsOf(res: Resource): Column[] {
  let cols = cache.get(res);
  if (!cols) {
    cols = Object.entries(res.fields).flatMap(([key, f]) =>
      f.header ? [{ key, header: f.header, shown: f.shown ?? false, value: FORMATS[f.format ?? 'text'](key) }] : [],
    );
    cache.set(res, cols);
  }
  return cols;
}
