import { UsageError } from '../errors.js';

// The one age convention (`clinadmin help ranges` says it in words, docs/serve.md for other services).
// The service stores an age as exact years, and a band as [ageMin, ageMax): ageMin is the first age in it,
// ageMax the first age past it, as FHIR R4 reads a Range's ends (exact values, §2.24.0.1 Range). People
// write the lab's completed-unit notation, `0–28 d` or `18–120` (the upper end is the last completed unit),
// and it is turned into exact years on input (0 and 29 d; 18 and 121 y); views write it back the same way.
// A number means the same to every reader that keeps 15 significant digits: `canon` reads only those.

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
 * are the same double), another age as its 15 significant digits. Every reader of those digits gets it back.
 */
export function canon(years: number): number {
  const e = edgeOf(years);
  return e ? exactYears(e.count, e.unit) : fifteen(years);
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

// A number may come in exponent form (1e-7): it is how JavaScript prints a tiny age.
const AGE = /^(<\s*)?(\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*(a|y|mo|wk|d|h)?$/;
export const AGE_FORMS = 'years (17, 2.5) or a count with its unit: 36h, 28d, 2wk, 11mo, 17y (or 17a)';

/** The count and unit of an age as written; years when no unit is given (nor `unit`). */
function read(text: string, what: string, unit?: AgeUnit): { count: number; unit: AgeUnit; below: boolean } {
  const m = text.length <= 40 ? AGE.exec(text.trim()) : null;
  const n = m ? Number(m[2]) : Number.NaN;
  if (!m || !Number.isFinite(n))
    throw new UsageError(`${what} "${text.slice(0, 40)}" is not an age; write ${AGE_FORMS}`);
  return { count: n, unit: (m[3] === undefined ? unit : unitOf(m[3])) ?? 'y', below: m[1] !== undefined };
}

/** One age, the start of its count (a subject's, or a band's ageMin): `30`, `30y`, `36h`, `28d`, `11mo`, `2.5`. */
export function parseAge(text: string, what: string, unit?: AgeUnit): number {
  const a = read(text, what, unit);
  if (a.below) throw new UsageError(`${what} "${text.slice(0, 40)}": only a band's upper end is written with <`);
  return canon(exactYears(a.count, a.unit));
}

/**
 * A band's upper end as a lab writes it, the last completed unit, as the first age past it: `28d` is 29 d,
 * `120` is 121 y. `<29d` is that age itself (an end no whole count fits is written so).
 */
export function parseAgeEnd(text: string, what: string, unit?: AgeUnit): number {
  const a = read(text, what, unit);
  if (a.below) return canon(exactYears(a.count, a.unit));
  if (!Number.isInteger(a.count))
    throw new UsageError(
      `${what} "${text.slice(0, 40)}": a band ends with a whole count of completed units ` +
        `(${Math.floor(a.count)}${a.unit} for ages below ${Math.floor(a.count) + 1} ${a.unit}), ` +
        `or with < and the first age past it (<${a.count}${a.unit})`,
    );
  return canon(exactYears(a.count + 1, a.unit));
}

/** An age band: `18-65`, `0-72h`, `1-12mo`, `29d-1y`, `12mo-1y`; a side without a unit takes the other side's. */
export function parseAgeBand(text: string, what: string): [number | undefined, number | undefined] {
  const t = text.trim();
  const m = /^([^-]*)-([^-]*)$/.exec(t) ?? /^([^.]*)\.\.([^.]*)$/.exec(t);
  if (!m || (m[1] === '' && m[2] === ''))
    throw new UsageError(
      `${what} "${text.slice(0, 40)}" is not an age band; write it as 18-65, 0-72h, 1-11mo or 29d-1y`,
    );
  const unitIn = (s: string) => {
    const u = AGE.exec(s.trim())?.[3];
    return u === undefined ? undefined : unitOf(u);
  };
  const [lo, hi] = [m[1].trim(), m[2].trim()];
  const a = lo === '' ? undefined : parseAge(lo, what, unitIn(hi));
  const b = hi === '' ? undefined : parseAgeEnd(hi, what, unitIn(lo));
  if (a !== undefined && b !== undefined && a >= b) {
    // Said in the units written: `3-1y` starts at 3y, after 1y, the last age it covers.
    const [from, to] = [lo + (unitIn(lo) ? '' : (unitIn(hi) ?? 'y')), hi + (unitIn(hi) ? '' : (unitIn(lo) ?? 'y'))];
    const end = to.startsWith('<') ? `${to.slice(1).trim()}, where it ends` : `${to}, the last age it covers`;
    throw new UsageError(
      `${what} "${text.slice(0, 40)}" holds no age: it starts at ${from}, not before ${end}; ` +
        'write the younger age first',
    );
  }
  return [a, b];
}

/** An age as a catalog cell writes it: `29d`, `18y`, `0.0767y`. */
export function ageText(years: number): string {
  return formatAge(years).replace(' ', '');
}

/** A band's upper end as a catalog cell writes it: `28d`, `120y`, `<0.0767y`. */
export function ageEndText(ageMax: number, ageMin = 0): string {
  return formatAgeEnd(ageMax, ageMin).replace(/ /g, '');
}

/**
 * A range with its ages as a catalog writes them, in the lab's notation: `"ageMin": "29d"` the first age,
 * `"ageMax": "11mo"` the last completed unit (readAgesIn and the CSV reader read them back to the same band).
 */
export function withAgeText<R extends { ageMin?: unknown; ageMax?: unknown }>(r: R): R {
  const [lo, hi] = [r.ageMin, r.ageMax];
  return {
    ...r,
    ...(typeof lo === 'number' ? { ageMin: lo === 0 ? '0' : ageText(lo) } : {}),
    ...(typeof hi === 'number' ? { ageMax: ageEndText(hi, typeof lo === 'number' ? lo : 0) } : {}),
  };
}

/**
 * The ages of a record's ranges as the service stores them, in place: a string is the lab's notation
 * (`"ageMax": "28d"` is 29 d), a number exact years (made canon). Each one that is not an age is a field error.
 */
export function readAgesIn(record: Record<string, unknown>): { path: string; message: string }[] {
  const errors: { path: string; message: string }[] = [];
  for (const list of ['referenceRanges', 'panicRanges']) {
    const ranges = record[list];
    if (!Array.isArray(ranges)) continue;
    ranges.forEach((r: unknown, i) => {
      if (r === null || typeof r !== 'object') return;
      const range = r as Record<string, unknown>;
      for (const field of ['ageMin', 'ageMax']) {
        const v = range[field];
        const path = `${list}[${i}].${field}`;
        if (v === undefined) continue;
        if (typeof v === 'number' && Number.isFinite(v) && v >= 0) {
          range[field] = canon(v);
          continue;
        }
        if (typeof v !== 'string') {
          // true, null, -1 or 1e400 (read as Infinity): named as an age written wrong, with the forms.
          const shown = typeof v === 'number' ? String(v) : String(JSON.stringify(v)).slice(0, 40);
          errors.push({ path, message: `${shown} is not an age; write ${AGE_FORMS}` });
          continue;
        }
        try {
          range[field] = field === 'ageMin' ? parseAge(v, path) : parseAgeEnd(v, path);
        } catch (err) {
          errors.push({ path, message: (err as Error).message.slice(path.length + 1) });
        }
      }
    });
  }
  return errors;
}
