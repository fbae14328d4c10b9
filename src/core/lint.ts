import {
  type AgeUnit,
  EPSILON,
  edgeOf,
  formatAge,
  formatAgeBand,
  formatAgeEnd,
  PER_YEAR,
  SHOWN,
  spanOf,
} from './ages.js';
import { meet } from './interpret.js';
import { decimalsOf as decimals, plainDecimal } from './number.js';
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

// Each bound with its precision field, spelled once rather than built per record (an import lints thousands).
const BOUNDS = [
  ['min', 'minPrecision'],
  ['max', 'maxPrecision'],
  ['simin', 'siminPrecision'],
  ['simax', 'simaxPrecision'],
] as const;

/** The sex two bands that meet are both for: either's, where the other is for all. */
const whomBoth = (a?: string, b?: string) => ((a ?? 'all') === 'all' ? (b ?? 'all') : a);
/** `male, 18–65 y`: who a range is for. */
const where = (r: RangeLike) => [r.sex ?? 'all', formatAgeBand(r.ageMin, r.ageMax)].filter(Boolean).join(', ');

/**
 * `ages 8–30 d are`, `age 18 y is`: the completed counts a gap (or an overlap) holds, in the smallest unit of
 * the edges around it, from its first age to its last.
 */
function gap(from: number, to: number, around: number[]): string {
  // The smallest of the largest units each edge is whole in (hours for an edge whole in none).
  const units = around.map((x): AgeUnit => edgeOf(x)?.unit ?? 'h');
  const unit = SHOWN[Math.max(...units.map((u) => SHOWN.indexOf(u)))];
  const first = Math.floor(from * PER_YEAR[unit] + EPSILON);
  const last = Math.ceil(to * PER_YEAR[unit] - EPSILON) - 1;
  return first >= last ? `age ${first} ${unit} is` : `ages ${first}–${last} ${unit} are`;
}

interface Band {
  r: RangeLike;
  i: number;
  span: [number, number];
}

/**
 * The ages no reference range covers, for each sex, over the measure's own span (its youngest band's start
 * to its oldest band's end): a male's ages are covered by the male bands and those for all, a female's by
 * the female ones and those for all, so `all 0–28 d` beside `male 29 d–120 y` leaves a female of 29 d and
 * older with no range. A sex with no band of its own and none for all (a test for one sex) is not checked.
 * A gap both sexes share is named once, for sex all. Bands are [ageMin, ageMax) (ages.ts), written in the
 * lab's notation: 0–17 y then 18–120 y leave no gap, nor 0–28 d then 29 d–1 y; 0–17 y then 19–120 y leave
 * 18 y uncovered.
 */
function gaps(refs: RangeLike[]): Warning[] {
  const bands: Band[] = refs.map((r, i) => ({ r, i, span: spanOf(r.ageMin, r.ageMax) }));
  if (bands.length === 0) return [];
  const sexOf = (b: Band) => b.r.sex ?? 'all';
  const first = bands.reduce((a, b) => (b.span[0] < a.span[0] ? b : a));
  const last = bands.reduce((a, b) => (b.span[1] > a.span[1] ? b : a));
  const found = new Map<string, { sexes: string[]; field: string; message: (sex: string) => string }>();
  for (const sex of ['male', 'female']) {
    const own = bands.filter((b) => sexOf(b) === sex || sexOf(b) === 'all').sort((a, b) => a.span[0] - b.span[0]);
    if (own.length === 0) continue;
    // From the measure's first age, each band in turn: where the ages covered so far end, and by which edge.
    let [end, endsAt] =
      own[0].span[0] > first.span[0] + EPSILON ? [first.span[0], undefined] : [own[0].span[1], own[0].r.ageMax];
    let before: Band | undefined = own[0].span[0] > first.span[0] + EPSILON ? undefined : own[0];
    const note = (from: number, to: number, field: string, message: (sex: string) => string) => {
      const key = `${from}:${to}`;
      const seen = found.get(key);
      if (seen) seen.sexes.push(sex);
      else found.set(key, { sexes: [sex], field, message });
    };
    for (const b of before ? own.slice(1) : own) {
      if (!Number.isFinite(end)) break;
      if (b.span[0] > end + EPSILON) {
        const [ended, after] = [endsAt, before];
        const what = uncovered(end, b.span[0], after ? ended : first.r.ageMin, b.r.ageMin!);
        const starts = formatAge(b.r.ageMin!);
        note(end, b.span[0], `referenceRanges[${b.i}]`, (who) =>
          after && ended !== undefined
            ? `${what} not covered for sex ${who}: the bands before it end at ${formatAgeEnd(ended)}, ` +
              `and it starts at ${starts}`
            : `${what} not covered for sex ${who}: the measure's bands start at ${formatAge(first.r.ageMin ?? 0)}, ` +
              `and the first for ${who} at ${starts}`,
        );
      }
      if (b.span[1] > end) [end, endsAt, before] = [b.span[1], b.r.ageMax, b];
    }
    // Past the last band of this sex, up to the measure's oldest age.
    if (before && Number.isFinite(end) && last.span[1] > end + EPSILON && endsAt !== undefined) {
      const [upTo, ended] = [last.r.ageMax, endsAt];
      // An ageMax is the first age past its band (ages.ts): a band up to 28 d leaves ages from 29 d.
      const firstAge = formatAge(ended);
      const what = upTo === undefined ? `ages from ${firstAge} are` : `ages ${firstAge}–${formatAgeEnd(upTo)} are`;
      const runs = upTo === undefined ? 'any age' : formatAgeEnd(upTo);
      note(
        end,
        last.span[1],
        `referenceRanges[${before.i}]`,
        (who) =>
          `${what} not covered for sex ${who}: its bands end at ${formatAgeEnd(ended)}, ` +
          `and the measure's run to ${runs}`,
      );
    }
  }
  return [...found.values()].map(({ sexes, field, message }) => ({
    field,
    message: message(sexes.length === 2 ? 'all' : sexes[0]),
  }));
}

/**
 * `ages 4 d–17 y are`, `ages 8–30 d are`, `age 18 y is`: the completed counts a gap holds, its first age in
 * the unit of the edge before it and its last in the unit of the edge after it, or, where that unit holds
 * no whole count of it (the day before 1 mo is 30 d), both in the smaller unit.
 */
function uncovered(from: number, to: number, before: number | undefined, after: number): string {
  const unit = (x: number): AgeUnit => edgeOf(x)?.unit ?? 'h';
  const [u1, u2] = [before === undefined || before === 0 ? unit(after) : unit(before), unit(after)];
  const first = Math.floor(from * PER_YEAR[u1] + EPSILON);
  const last = Math.ceil(to * PER_YEAR[u2] - EPSILON) - 1;
  if (u1 === u2 || last < 1 || last * (PER_YEAR[u1] / PER_YEAR[u2]) < first)
    return gap(from, to, [after, ...(before ? [before] : [])]);
  return `ages ${first} ${u1}–${last} ${u2} are`;
}

/** What a careful lab admin wants to see before publishing a measure; none of it stops an import. */
export function lintMeasure(m: MeasureLike): Warning[] {
  const out: Warning[] = [];
  const refs = m.referenceRanges ?? [];
  const panics = m.panicRanges ?? [];

  if (m.type === 'numeric' && !m.unit) out.push({ field: 'unit', message: 'a numeric measure has no unit' });

  // Each band's span once: the pairs below are many in a long (or hostile) list, a span's reading is not cheap.
  const spans = refs.map((r) => spanOf(r.ageMin, r.ageMax));
  // Each band is said to overlap the first one before it that it overlaps: a warning a band, not a pair.
  for (let j = 1; j < refs.length; j++) {
    for (let i = 0; i < j; i++) {
      // A band for all meets one for either sex (evaluate reads the first that applies): for those people, both.
      if (meet(refs[i], refs[j], spans[i], spans[j])) {
        const [a, b] = [spans[i], spans[j]];
        // The ages in both, from the later start to the earlier end, in the unit of those two edges.
        const edges = [a[0] >= b[0] ? refs[i].ageMin : refs[j].ageMin, a[1] <= b[1] ? refs[i].ageMax : refs[j].ageMax];
        const known = edges.filter((x) => x !== undefined && x > 0) as number[];
        const [from, to] = [Math.max(a[0], b[0]), Math.min(a[1], b[1])];
        const both = Number.isFinite(to) && known.length > 0 ? gap(from, to, known) : '';
        out.push({
          field: `referenceRanges[${j}]`,
          message:
            `its age band overlaps referenceRanges[${i}] for sex ${whomBoth(refs[i].sex, refs[j].sex)}` +
            (both ? `: ${both} in both` : ''),
        });
        break;
      }
    }
  }

  for (const w of gaps(refs)) out.push(w);

  // A panic range holds critical limits (FHIR's `critical`: results outside it are critical). Beside a
  // reference range for the same people, a low limit belongs at or below its low end and a high limit at
  // or above its high end; a limit wholly on the wrong side reads as a zone of critical values, the other
  // reading in the field, and the warning says how to write the limit meant.
  panics.forEach((p, pi) => {
    const span = spanOf(p.ageMin, p.ageMax);
    refs.forEach((r, ri) => {
      if (!meet(p, r, span, spans[ri])) return;
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
            message: `${plainDecimal(value)} has more decimals than its stated precision ${precision}`,
          });
        }
      }
    });
  precisionOf(refs, 'referenceRanges');
  precisionOf(panics, 'panicRanges');
  return out;
}
