import { precisionOf, valueText } from '../core/number.js';
import { formatCritical, formatRange, type RangeLike } from '../core/ranges.js';
import type { Rec } from '../formats/json/record.js';
import type { Column, View } from './columns.js';
import { cellText } from './list.js';
import { bandLabel, rangePicture } from './picture.js';
import { displayWidth, pad, visible } from './text.js';
import type { Theme } from './theme.js';

/** `HL7 CODE` → `HL7 code`, `CREATED BY` → `Created by`. */
function label(header: string): string {
  const words = header.split(' ').map((w) => (/^(ID|SI|HL7|URL)$/.test(w) ? w : w.toLowerCase()));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A value in a describe view: text as it is (made safe), lists joined, objects as JSON. */
function describeValue(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v) && v.every((x) => typeof x !== 'object' || x === null)) return visible(v.join(', '));
  return visible(valueText(v));
}

const isRanges = (c: Column, r: Rec) =>
  (c.key === 'referenceRanges' || c.key === 'panicRanges') && Array.isArray(r[c.key]);

/**
 * The ranges of a measure as a small aligned table: sex, age, conventional, SI, precision. A panic range's
 * bounds are its critical limits, shown as such (`< 2.5 or > 6.5`).
 */
async function rangeTable(ranges: RangeLike[], r: Rec, t: Theme, panic: boolean): Promise<string> {
  const { default: Table } = await import('cli-table3');
  // No borders: a table of aligned columns, as the lists are.
  const none = Object.fromEntries(
    ['top', 'top-mid', 'top-left', 'top-right', 'bottom', 'bottom-mid', 'bottom-left', 'bottom-right']
      .concat(['left', 'left-mid', 'mid', 'mid-mid', 'right', 'right-mid', 'middle'])
      .map((k) => [k, k === 'middle' ? '  ' : '']),
  );
  const table = new Table({ chars: none, style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 } });
  table.push(['SEX', 'AGE', 'CONVENTIONAL', 'SI', 'PRECISION', 'ID'].map((h) => t.bold(h)));
  for (const x of ranges) {
    const sex = x.sex && x.sex !== 'all' ? x.sex : 'all';
    const age =
      x.ageMin === undefined && x.ageMax === undefined
        ? 'all'
        : bandLabel({ ageMin: x.ageMin, ageMax: x.ageMax }).slice(4);
    const format = panic ? (y: RangeLike, u?: string, su?: string) => formatCritical(y, u, su, '') : formatRange;
    const conventional = format(
      { min: x.min, max: x.max, minPrecision: x.minPrecision, maxPrecision: x.maxPrecision },
      r.unit as string,
    );
    const si = format(
      { simin: x.simin, simax: x.simax, siminPrecision: x.siminPrecision, simaxPrecision: x.simaxPrecision },
      undefined,
      r.siunit as string,
    );
    // The places each bound is shown with: its precision field, else its own decimals (0.0000001 has 7).
    const precision = (
      [
        [x.min, x.minPrecision],
        [x.max, x.maxPrecision],
      ] as const
    )
      .map(([v, p]) => (typeof v === 'number' ? precisionOf(v, p) : p))
      .filter((p) => p !== undefined);
    table.push(
      [sex, age, conventional, si, [...new Set(precision)].join('–'), x.id ?? ''].map((c) => visible(String(c), true)),
    );
  }
  return table
    .toString()
    .split('\n')
    .map((l: string) => `  ${l.trimEnd()}`)
    .join('\n');
}

/**
 * One record as kubectl describe and gh view show one: a title, aligned `Label: value` lines in the
 * registry's order, ranges as a small table (and, for a numeric measure, their picture), then the
 * fields this version does not know.
 */
export async function renderDescribe(record: Rec, columns: Column[], view: View, t: Theme, width: number) {
  const out: string[] = [];
  const title = record.name ?? record.title ?? record.id;
  if (typeof title === 'string') out.push(t.bold(visible(title, true)));
  const known = new Set(columns.map((c) => c.key));
  const lines = columns
    .filter((c) => record[c.key] !== undefined && !isRanges(c, record))
    .map((c) => [`${label(c.header)}:`, c.value === undefined ? '' : cellText(c, record, view)] as const);
  const others = Object.entries(record)
    .filter(([k, v]) => !known.has(k) && v !== undefined)
    .map(([k, v]) => [`${visible(k, true)}:`, describeValue(v)] as const);
  const labelWidth = Math.max(0, ...[...lines, ...others].map(([l]) => displayWidth(l)));
  const field = ([l, v]: readonly [string, string]) =>
    `${pad(l, labelWidth)}  ${v.replace(/\n/g, `\n${' '.repeat(labelWidth + 2)}`)}`;
  out.push(...lines.map(field));
  for (const c of columns.filter((c) => isRanges(c, record))) {
    const ranges = record[c.key] as RangeLike[];
    if (ranges.length === 0) continue;
    const panic = c.key === 'panicRanges';
    const title = panic ? `${label(c.header)} (critical limits: below or above is critical)` : label(c.header);
    out.push('', t.bold(title), await rangeTable(ranges, record, t, panic));
  }
  const picture = known.has('referenceRanges') ? rangePicture(record, width, t) : undefined;
  if (picture) out.push('', picture.trimEnd());
  if (others.length > 0)
    out.push('', t.bold('Other fields (not known to this version of clinadmin)'), ...others.map(field));
  return `${out.join('\n')}\n`;
}
