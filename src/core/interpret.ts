import { EPSILON, inBand, spanOf } from './ages.js';
import type { RangeLike } from './ranges.js';

/** Who a result is from, as far as it is known. */
export interface Subject {
  sex?: 'male' | 'female';
  /** Years. */
  age?: number;
}

/**
 * Whether a range applies to a subject: the one rule for evaluate, the lint and the range picture. A range
 * for one sex applies only when that sex is known, and an age band only when the age is known and within
 * it (ages.ts: each edge counts in the unit it was written in).
 */
export function applies(r: RangeLike, s: Subject): boolean {
  if (r.sex && r.sex !== 'all' && r.sex !== s.sex) return false;
  if (r.ageMin === undefined && r.ageMax === undefined) return true;
  if (s.age === undefined) return false;
  return inBand(s.age, r.ageMin, r.ageMax);
}

/**
 * Whether two ranges can apply to one subject: sexes that meet, age bands that overlap. A caller comparing
 * many pairs passes each range's span, worked out once.
 */
export function meet(
  a: RangeLike,
  b: RangeLike,
  [startA, endA] = spanOf(a.ageMin, a.ageMax),
  [startB, endB] = spanOf(b.ageMin, b.ageMax),
): boolean {
  const sex = (a.sex ?? 'all') === 'all' || (b.sex ?? 'all') === 'all' || a.sex === b.sex;
  return sex && Math.max(startA, startB) < Math.min(endA, endB) - EPSILON;
}

type Interpretation = 'critical-low' | 'critical-high' | 'low' | 'normal' | 'high' | 'no-range';

interface Evaluation {
  interpretation: Interpretation;
  /** The reference ranges that applied, and the panic ranges that applied. */
  reference: RangeLike[];
  panic: RangeLike[];
}

interface MeasureLike {
  referenceRanges?: RangeLike[];
  panicRanges?: RangeLike[];
}

/**
 * A result interpreted as a lab system does. A panic range holds critical limits, as FHIR R4 defines the
 * `critical` category ("results outside this range are critical"): below its low limit is critical-low, above
 * its high limit critical-high, a value equal to a limit is not critical. These are checked first, with or
 * without a reference range; then low, normal or high against the first reference range that applies, its
 * bounds inclusive; no-range when none applies. `si` reads the SI bounds (simin, simax).
 */
export function evaluate(m: MeasureLike, value: number, subject: Subject, si = false): Evaluation {
  const reference = (m.referenceRanges ?? []).filter((r) => applies(r, subject));
  const panic = (m.panicRanges ?? []).filter((r) => applies(r, subject));
  const lo = (r: RangeLike) => (si ? r.simin : r.min);
  const hi = (r: RangeLike) => (si ? r.simax : r.max);
  const result = (interpretation: Interpretation) => ({ interpretation, reference, panic });
  for (const p of panic) {
    const low = lo(p);
    if (low !== undefined && value < low) return result('critical-low');
  }
  for (const p of panic) {
    const high = hi(p);
    if (high !== undefined && value > high) return result('critical-high');
  }
  const r = reference.find((x) => lo(x) !== undefined || hi(x) !== undefined);
  if (!r) return result('no-range');
  if (lo(r) !== undefined && value < lo(r)!) return result('low');
  if (hi(r) !== undefined && value > hi(r)!) return result('high');
  return result('normal');
}
