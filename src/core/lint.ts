import { formatAge, formatAgeBand, pastBand } from './ages.js';
import { meet } from './interpret.js';
import type { RangeLike } from './ranges.js';

export interface Warning {
  field: string;
  message: string;
}

interface MeasureLike {
  type?: string;
  unit?: string;
  referenceRanges?: RangeLike[];
  panicRanges?: RangeLike[];
}

const decimals = (n: number) => {
  const s = String(n);
  const e = s.indexOf('e-');
  if (e !== -1) return Number(s.slice(e + 2));
  const dot = s.indexOf('.');
  return dot === -1 ? 0 : s.length - dot - 1;
};

// Each bound with its precision field, spelled once rather than built per record (an import lints thousands).
const BOUNDS = [
  ['min', 'minPrecision'],
  ['max', 'maxPrecision'],
  ['simin', 'siminPrecision'],
  ['simax', 'simaxPrecision'],
] as const;

const same = (a?: string, b?: string) => (a ?? 'all') === (b ?? 'all');
/** `male, 18–65 y`: who a range is for. */
const where = (r: RangeLike) => [r.sex ?? 'all', formatAgeBand(r.ageMin, r.ageMax)].filter(Boolean).join(', ');

/** What a careful lab admin wants to see before publishing a measure; none of it stops an import. */
export function lintMeasure(m: MeasureLike): Warning[] {
  const out: Warning[] = [];
  const refs = m.referenceRanges ?? [];
  const panics = m.panicRanges ?? [];

  if (m.type === 'numeric' && !m.unit) out.push({ field: 'unit', message: 'a numeric measure has no unit' });

  for (let i = 0; i < refs.length; i++) {
    for (let j = i + 1; j < refs.length; j++) {
      if (same(refs[i].sex, refs[j].sex) && meet(refs[i], refs[j])) {
        out.push({
          field: `referenceRanges[${j}]`,
          message: `its age band overlaps referenceRanges[${i}] for sex ${refs[i].sex ?? 'all'}`,
        });
      }
    }
  }

  // Bands are written in completed units: 0–17 y then 18–120 y leave no gap, nor 0–28 d then 29 d–1 y;
  // 0–17 y then 19–120 y leave 18 y uncovered, and 0–7 d then 1–12 mo the days from 8 d.
  const bySex = new Map<string, { r: RangeLike; i: number }[]>();
  refs.forEach((r, i) => {
    const sex = r.sex ?? 'all';
    bySex.set(sex, [...(bySex.get(sex) ?? []), { r, i }]);
  });
  for (const [sex, bands] of bySex) {
    const sorted = [...bands].sort((a, b) => (a.r.ageMin ?? 0) - (b.r.ageMin ?? 0));
    let covered = sorted[0].r.ageMax;
    for (const { r, i } of sorted.slice(1)) {
      if (covered === undefined) break;
      const next = pastBand(covered);
      const from = r.ageMin ?? 0;
      if (from > next + 1e-9) {
        out.push({
          field: `referenceRanges[${i}]`,
          message:
            `ages from ${formatAge(next)} up to ${formatAge(from)} are not covered for sex ${sex}: ` +
            `the bands before it end at ${formatAge(covered)}`,
        });
      }
      covered = r.ageMax === undefined ? undefined : Math.max(covered, r.ageMax);
    }
  }

  // A panic range holds critical limits (FHIR's `critical`: results outside it are critical). Beside a
  // reference range for the same people, a low limit belongs at or below its low end and a high limit at
  // or above its high end; a limit wholly on the wrong side reads as a zone of critical values, the other
  // reading in the field, and the warning says how to write the limit meant.
  panics.forEach((p, pi) => {
    refs.forEach((r, ri) => {
      if (!meet(p, r)) return;
      for (const [lo, hi, kind] of [
        ['min', 'max', ''],
        ['simin', 'simax', 'SI '],
      ] as const) {
        const [pl, ph, rl, rh] = [p[lo], p[hi], r[lo], r[hi]];
        const ref = `referenceRanges[${ri}] (${rl ?? ''}–${rh ?? ''}${kind ? ' SI' : ''}, ${where(r)})`;
        const warn = (bound: string, message: string) => out.push({ field: `panicRanges[${pi}].${bound}`, message });
        if (pl !== undefined && rh !== undefined && pl > rh) {
          warn(
            lo,
            `${lo} ${pl} makes every result below ${pl} critical, the whole of ${ref} included; ` +
              `if results above ${pl} are critical, write the ${kind}critical high limit as ${hi} ${pl} (">${pl}")`,
          );
        } else if (pl !== undefined && rl !== undefined && pl > rl) {
          warn(
            lo,
            `the ${kind}critical low limit ${pl} is above the low end ${rl} of ${ref}: results in it would be critical`,
          );
        }
        if (ph !== undefined && rl !== undefined && ph < rl) {
          warn(
            hi,
            `${hi} ${ph} makes every result above ${ph} critical, the whole of ${ref} included; ` +
              `if results below ${ph} are critical, write the ${kind}critical low limit as ${lo} ${ph} ("<${ph}")`,
          );
        } else if (ph !== undefined && rh !== undefined && ph < rh) {
          warn(
            hi,
            `the ${kind}critical high limit ${ph} is below the high end ${rh} of ${ref}: ` +
              'results in it would be critical',
          );
        }
      }
    });
  });

  // Conventional and SI bounds must order the same way: a higher conventional bound means a higher SI one.
  // Field names are spelled out only for a warning: an import lints thousands of records.
  const pairs: { conv: number; si: number; list: string; at: number; bound: string }[] = [];
  const collect = (list: RangeLike[], name: string) =>
    list.forEach((r, i) => {
      if (r.min !== undefined && r.simin !== undefined)
        pairs.push({ conv: r.min, si: r.simin, list: name, at: i, bound: 'simin' });
      if (r.max !== undefined && r.simax !== undefined)
        pairs.push({ conv: r.max, si: r.simax, list: name, at: i, bound: 'simax' });
    });
  collect(refs, 'referenceRanges');
  collect(panics, 'panicRanges');
  const fieldOf = (p: (typeof pairs)[number]) => `${p.list}[${p.at}].${p.bound}`;
  const reported = new Set<string>();
  for (let i = 0; i < pairs.length; i++) {
    for (let j = i + 1; j < pairs.length; j++) {
      const a = pairs[i];
      const b = pairs[j];
      if (Math.sign(a.conv - b.conv) * Math.sign(a.si - b.si) < 0 && !reported.has(fieldOf(b))) {
        reported.add(fieldOf(b));
        const cmp = (x: number, y: number) => (x < y ? '<' : '>');
        out.push({
          field: fieldOf(b),
          message:
            `SI and conventional bounds disagree in direction with ${fieldOf(a)}: ` +
            `conventional ${a.conv} ${cmp(a.conv, b.conv)} ${b.conv} but SI ${a.si} ${cmp(a.si, b.si)} ${b.si}`,
        });
      }
    }
  }

  const precisionOf = (list: RangeLike[], name: string) =>
    list.forEach((r, i) => {
      const rr = r as Record<string, number | undefined>;
      for (const [bound, precisionField] of BOUNDS) {
        const value = rr[bound];
        const precision = rr[precisionField];
        if (value !== undefined && precision !== undefined && decimals(value) > precision) {
          out.push({
            field: `${name}[${i}].${bound}`,
            message: `${value} has more decimals than its stated precision ${precision}`,
          });
        }
      }
    });
  precisionOf(refs, 'referenceRanges');
  precisionOf(panics, 'panicRanges');
  return out;
}
