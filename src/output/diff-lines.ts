import { jsonText } from '../core/number.js';
import { comparableRange, formatCritical, formatRange, type RangeLike } from '../core/ranges.js';
import { canonical } from '../core/sync/existing.js';
import type { Rec } from '../formats/json/record.js';
import { visible } from './text.js';

// What changes, as diff lines: a record's fields one by one, its ranges paired by id and band.

const show = (v: unknown) => (v === undefined ? '(unset)' : jsonText(v));

const isRange = (r: unknown) => r !== null && typeof r === 'object' && !Array.isArray(r);

/**
 * A range as a lab admin reads it, with its id: `rr_k: 3.5–5.1 [3.5–5.1] (male, 18–65 y)`; a panic range as
 * its critical limits: `critical < 2.5 or > 6.5 [< 2.5 or > 6.5]`.
 */
const rangeText = (panic: boolean) => (r: unknown) => {
  if (!isRange(r)) return show(r);
  const range = r as RangeLike;
  return `${range.id ? `${range.id}: ` : ''}${(panic ? formatCritical : formatRange)(range)}`;
};

/** Who a range is for: its sex and age band, as JSON (a range without them is for all). */
const bandOf = (r: RangeLike) => JSON.stringify([r.sex ?? 'all', r.ageMin ?? null, r.ageMax ?? null]);

/**
 * The ranges of two lists paired as the service keeps them: by id, then, for a range given without one, by
 * sex and age band; what is left is added or removed. Each pair is [place in `from`, place in `to`], in the
 * order of `to`, the removed after. So inserting one band before the others is one addition, not a change
 * at every place after it.
 */
export function pairRanges(from: RangeLike[], to: RangeLike[]): [number | undefined, number | undefined][] {
  const taken = new Set<number>();
  const partner: (number | undefined)[] = to.map(() => undefined);
  const claim = (k: number, test: (a: RangeLike) => boolean) => {
    const i = from.findIndex((a, j) => !taken.has(j) && test(a));
    if (i !== -1) {
      taken.add(i);
      partner[k] = i;
    }
  };
  to.forEach((b, k) => {
    if (b.id !== undefined) claim(k, (a) => a.id === b.id);
  });
  to.forEach((b, k) => {
    if (b.id === undefined) claim(k, (a) => bandOf(a) === bandOf(b));
  });
  const pairs: [number | undefined, number | undefined][] = to.map((_, k) => [partner[k], k]);
  from.forEach((_, i) => {
    if (!taken.has(i)) pairs.push([i, undefined]);
  });
  return pairs;
}

/** The fields two ranges that read alike differ in: `(maxPrecision 2 → 1)`, so no change is invisible. */
function hiddenChange(a: Rec, b: Rec): string {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(
    (k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]),
  );
  return ` (${keys.map((k) => `${k} ${show(a[k])} → ${show(b[k])}`).join(', ')})`;
}

/** A list of ranges changed: only the ranges that differ, paired by id and band (pairRanges), not by place. */
export function changeLines(field: string, from: unknown, to: unknown): string[] {
  if (!Array.isArray(from) || !Array.isArray(to)) return [`${field}: ${show(from)} → ${show(to)}`];
  // Ranges in the lab's short form, so that a line fits a terminal; other lists as JSON, place by place.
  const ranges = /Ranges$/.test(field) && [...from, ...to].every(isRange);
  const text = ranges ? rangeText(field === 'panicRanges') : show;
  const pairs: [number | undefined, number | undefined][] = ranges
    ? pairRanges(from as RangeLike[], to as RangeLike[])
    : Array.from({ length: Math.max(from.length, to.length) }, (_, k) => [
        k < from.length ? k : undefined,
        k < to.length ? k : undefined,
      ]);
  const out: string[] = [];
  for (const [i, k] of pairs) {
    if (i === undefined) {
      out.push(`${field}[${k}]: added ${text(to[k!])}`);
      continue;
    }
    if (k === undefined) {
      out.push(`${field}[${i}]: removed ${text(from[i])}`);
      continue;
    }
    // A range given without an id keeps the stored one's: it is not a change.
    const a = ranges && (to[k] as Rec).id === undefined ? withoutId(from[i] as Rec) : from[i];
    const b = to[k];
    if (canonical(ranges ? comparableRange(a) : a) === canonical(ranges ? comparableRange(b) : b)) continue;
    const [ta, tb] = [text(a), text(b)];
    const hidden = ta === tb && ranges ? hiddenChange(a as Rec, b as Rec) : '';
    out.push(`${field}[${k}]: ${ta} → ${tb}${hidden}`);
  }
  return out;
}

const withoutId = ({ id: _id, ...rest }: Rec) => rest;

/** The fields of `next` that differ from `current`, as diff lines (ranges one by one). */
export function diffLines(current: Record<string, unknown>, next: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [field, to] of Object.entries(next)) {
    if (JSON.stringify(current[field]) === JSON.stringify(to)) continue;
    for (const l of changeLines(field, current[field], to)) out.push(visible(`    ${l}`, true));
  }
  return out;
}
