import { EPSILON, edgeOf, formatAge, formatAgeBand, PER_YEAR, smaller, spanOf } from './ages.js';
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

/**
 * `ages 8–30 d are`, `age 18 y is`: the completed counts a gap (or an overlap) holds, in the smallest unit of
 * the edges around it, from its first age to its last.
 */
function gap(from: number, to: number, around: number[]): string {
  const unit = around.map((x) => edgeOf(x).unit).reduce(smaller);
  const first = Math.floor(from * PER_YEAR[unit] + EPSILON);
  const last = Math.ceil(to * PER_YEAR[unit] - EPSILON) - 1;
  return first >= last ? `age ${first} ${unit} is` : `ages ${first}–${last} ${unit} are`;
}

/** What a careful lab admin wants to see before publishing a measure; none of it stops an import. */
export function lintMeasure(m: MeasureLike): Warning[] {
  const out: Warning[] = [];
  const refs = m.referenceRanges ?? [];
  const panics = m.panicRanges ?? [];

  if (m.type === 'numeric' && !m.unit) out.push({ field: 'unit', message: 'a numeric measure has no unit' });

  for (let i = 0; i < refs.length; i++) {
    for (let j = i + 1; j < refs.length; j++) {
      if (same(refs[i].sex, refs[j].sex) && meet(refs[i], refs[j])) {
        const [a, b] = [spanOf(refs[i].ageMin, refs[i].ageMax), spanOf(refs[j].ageMin, refs[j].ageMax)];
        // The ages in both, from the later start to the earlier end, in the unit of those two edges.
        const edges = [a[0] >= b[0] ? refs[i].ageMin : refs[j].ageMin, a[1] <= b[1] ? refs[i].ageMax : refs[j].ageMax];
        const known = edges.filter((x) => x !== undefined && x > 0) as number[];
        const [from, to] = [Math.max(a[0], b[0]), Math.min(a[1], b[1])];
        const both = Number.isFinite(to) && known.length > 0 ? gap(from, to, known) : '';
        out.push({
          field: `referenceRanges[${j}]`,
          message:
            `its age band overlaps referenceRanges[${i}] for sex ${refs[i].sex ?? 'all'}` +
            (both ? `: ${both} in both` : ''),
        });
      }
    }
  }

  // Bands are written in completed units (ages.ts): 0–17 y then 18–120 y leave no gap, nor 0–28 d then
  // 29 d–1 y, nor 29 d–11 mo then 1–17 y; 0–17 y then 19–120 y leave 18 y uncovered, 0–7 d then 1–12 mo 8–30 d.
  const bySex = new Map<string, { r: RangeLike; i: number; span: [number, number] }[]>();
  refs.forEach((r, i) => {
    const sex = r.sex ?? 'all';
    bySex.set(sex, [...(bySex.get(sex) ?? []), { r, i, span: spanOf(r.ageMin, r.ageMax) }]);
  });
  for (const [sex, bands] of bySex) {
    const sorted = [...bands].sort((a, b) => a.span[0] - b.span[0]);
    let [end, endsAt] = [sorted[0].span[1], sorted[0].r.ageMax];
    for (const { r, i, span } of sorted.slice(1)) {
      if (!Number.isFinite(end) || endsAt === undefined) break;
      if (span[0] > end + EPSILON) {
        out.push({
          field: `referenceRanges[${i}]`,
          message:
            `${gap(end, span[0], [endsAt, r.ageMin!])} not covered for sex ${sex}: ` +
            `the bands before it end at ${formatAge(endsAt)}, and it starts at ${formatAge(r.ageMin!)}`,
        });
      }
      if (span[1] > end) [end, endsAt] = [span[1], r.ageMax];
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
