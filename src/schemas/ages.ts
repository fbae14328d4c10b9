// The one age convention of the API (`clinadmin help ranges` says it in words, docs/serve.md for other
// services); core/ages.ts reads the lab's notation into it.
// The service stores an age as exact years, and a band as [ageMin, ageMax): ageMin is the first age in it,
// ageMax the first age past it, as FHIR R4 reads a Range's ends (exact values, §2.24.0.1 Range). People
// write the lab's completed-unit notation, `0–28 d` or `18–120` (the upper end is the last completed unit),
// and it is turned into exact years on input (0 and 29 d; 18 and 121 y); views write it back the same way.
// A whole count of a unit means the same to every reader that keeps 15 significant digits: `canon` finds it so.

/** Units of time as UCUM has them (https://ucum.org/ucum §31–32): a = 365.25 d, mo = a/12, wk = 7 d. */
export type AgeUnit = 'y' | 'mo' | 'wk' | 'd' | 'h';
export const PER_YEAR: Record<AgeUnit, number> = { y: 1, mo: 12, wk: 365.25 / 7, d: 365.25, h: 365.25 * 24 };
/** The UCUM code of each unit (a year is `a` in UCUM, `y` as labs write it). */
export const UCUM_CODE: Record<AgeUnit, string> = { y: 'a', mo: 'mo', wk: 'wk', d: 'd', h: 'h' };
/** The units an age is shown in, largest first (weeks are read, never shown: 2 wk is 14 d). */
export const SHOWN: readonly AgeUnit[] = ['y', 'mo', 'd', 'h'];

/** One unit from what a person or UCUM writes: `a` and `y` are years. */
export function unitOf(text: string): AgeUnit | undefined {
  if (text === 'a' || text === 'y') return 'y';
  return text === 'mo' || text === 'wk' || text === 'd' || text === 'h' ? text : undefined;
}

/** Years of a count in a unit, exactly: what the service stores and a subject's age is measured in. */
export const exactYears = (count: number, unit: AgeUnit): number => (unit === 'y' ? count : count / PER_YEAR[unit]);

/** The number as a reader keeping 15 significant digits has it. */
const fifteen = (years: number): number => Number(years.toPrecision(15));

/**
 * The whole count of `unit` that `years` is, read to 15 significant digits; undefined when it is none. A
 * count read so is off a whole number by parts in 10^14 at most, and two whole counts differ by 1.
 */
export function countIn(years: number, unit: AgeUnit): number | undefined {
  const count = fifteen(years) * PER_YEAR[unit];
  const whole = Math.round(count);
  return Math.abs(count - whole) <= Math.max(1, count) * 1e-12 ? whole : undefined;
}

/** The largest unit an age is whole in, and its count there; undefined when it is whole in none. */
export function edgeOf(years: number): { count: number; unit: AgeUnit } | undefined {
  if (years === 0) return { count: 0, unit: 'y' };
  for (const unit of SHOWN) {
    const count = countIn(years, unit);
    if (count !== undefined) return { count, unit };
  }
  return undefined;
}

/**
 * The one number that stands for an age: a whole count of its largest unit as exact years (24 h and 1 d
 * are the same double, however a file rounded it), another age as it is (`3.590710444841534`: rounding it to
 * 15 digits would make an export of the server's own value a change on re-import).
 */
export function canon(years: number): number {
  const e = edgeOf(years);
  return e ? exactYears(e.count, e.unit) : years;
}

const trim = (n: number) => String(Number(n.toPrecision(15)));

/** `29 d`, `1 y`, `36 h`, `0.0767 y`: an age (a band's start, a subject's age) in the largest unit it is whole in. */
export function formatAge(years: number): string {
  const e = edgeOf(years);
  return e ? `${e.count} ${e.unit}` : `${trim(years)} y`;
}

/**
 * The last completed unit before `end` (a band's ageMax) that is not before `start`: the largest of y, mo,
 * d, h in which `end` is whole and one unit less is still in the band. `[29 d, 1 y)` ends at `11 mo`.
 * Undefined when there is none (the end is whole in no unit, or the band is shorter than an hour).
 */
export function lastUnit(start: number, end: number): { count: number; unit: AgeUnit } | undefined {
  for (const unit of SHOWN) {
    const count = countIn(end, unit);
    if (count !== undefined && count >= 1 && canon(exactYears(count - 1, unit)) >= canon(start))
      return { count: count - 1, unit };
  }
  return undefined;
}

/** `11 mo`, `120 y`, `< 0.0767 y`: a band's end as a lab writes it, the last completed unit. */
export function formatAgeEnd(ageMax: number, ageMin = 0): string {
  const last = lastUnit(ageMin, ageMax);
  return last ? `${last.count} ${last.unit}` : `< ${formatAge(ageMax)}`;
}

/**
 * A band as a lab writes it (`help ranges`): each end in the largest of h, d, mo, y it is whole in, the
 * upper end as its last completed unit. `0–28 d`, `29 d–11 mo`, `18–120 y`, `1 y`, `≥ 18 y`, `≤ 17 y`.
 */
export function formatAgeBand(ageMin: number | undefined, ageMax: number | undefined): string {
  if (ageMin === undefined && ageMax === undefined) return '';
  if (ageMax === undefined) return `≥ ${formatAge(ageMin!)}`;
  const last = lastUnit(ageMin ?? 0, ageMax);
  if (ageMin === undefined) return `≤ ${formatAgeEnd(ageMax)}`;
  const lo = ageMin === 0 && last ? { count: 0, unit: last.unit } : edgeOf(ageMin);
  if (!last) return `${formatAge(ageMin)}–${formatAgeEnd(ageMax, ageMin)}`;
  if (lo?.unit !== last.unit) return `${formatAge(ageMin)}–${last.count} ${last.unit}`;
  return lo.count === last.count ? `${last.count} ${last.unit}` : `${lo.count}–${last.count} ${last.unit}`;
}

/** Where a band starts and where the ages it covers end, in exact years: [ageMin, ageMax). */
export function spanOf(ageMin: number | undefined, ageMax: number | undefined): [number, number] {
  return [ageMin === undefined ? 0 : canon(ageMin), ageMax === undefined ? Number.POSITIVE_INFINITY : canon(ageMax)];
}

/** Ages closer than this are one age (both are canon numbers; a billionth of a year is 30 ms). */
export const EPSILON = 1e-9;

/** Whether an age (exact years) lies in a band [ageMin, ageMax). */
export function inBand(age: number, ageMin: number | undefined, ageMax: number | undefined): boolean {
  const [start, end] = spanOf(ageMin, ageMax);
  const a = canon(age);
  return a >= start && a < end;
}
