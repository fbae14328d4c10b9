import { UsageError } from '../errors.js';

// The one age rule (`clinadmin help ranges` says it in words). The service stores an age as a bare number
// of years; a band edge counts in the unit a lab wrote it in, and a band [min, max] covers every age whose
// completed count of each edge's unit lies in [min, max]. So the unit must survive the number: it is
// written so (toYears) and read back so (edgeOf), and every view, check and format uses these two.

/** Units of time as UCUM has them (https://ucum.org/ucum §31–32): a = 365.25 d, mo = a/12, wk = 7 d. */
export type AgeUnit = 'y' | 'mo' | 'wk' | 'd' | 'h';
export const PER_YEAR: Record<AgeUnit, number> = { y: 1, mo: 12, wk: 365.25 / 7, d: 365.25, h: 365.25 * 24 };
/** Smallest first: the order in which one unit is "smaller" than another. */
const SMALLEST_FIRST: AgeUnit[] = ['h', 'd', 'wk', 'mo', 'y'];
/** The UCUM code of each unit (a year is `a` in UCUM, `y` as labs write it). */
export const UCUM_CODE: Record<AgeUnit, string> = { y: 'a', mo: 'mo', wk: 'wk', d: 'd', h: 'h' };

/** The order in which units claim a stored number: a larger unit first, and days before weeks. */
const CLAIM_ORDER: AgeUnit[] = ['y', 'mo', 'd', 'wk', 'h'];

/** One unit from what a person or UCUM writes: `a` and `y` are years. */
export function unitOf(text: string): AgeUnit | undefined {
  if (text === 'a' || text === 'y') return 'y';
  return text === 'mo' || text === 'wk' || text === 'd' || text === 'h' ? text : undefined;
}

/** Years of a count in a unit, exactly: what spans and a subject's age are measured in. */
export const exactYears = (count: number, unit: AgeUnit): number => (unit === 'y' ? count : count / PER_YEAR[unit]);

/** The next number a double can hold above `x` (x > 0). */
function nextUp(x: number): number {
  const f = new Float64Array([x]);
  new BigInt64Array(f.buffer)[0] += 1n;
  return f[0];
}

/** Whether a unit before `unit` in CLAIM_ORDER stores one of its whole counts as `years`. */
const claimedBefore = (years: number, unit: AgeUnit): boolean =>
  CLAIM_ORDER.slice(0, CLAIM_ORDER.indexOf(unit)).some((u) => {
    const count = Math.round(years * PER_YEAR[u]);
    return count > 0 && toYears(count, u) === years;
  });

/**
 * The number the service stores for an edge of `count` units: its exact years, or, where a larger unit
 * already stands for that number (24 h is 1 d, 12 mo is 1 y, 2 wk is 14 d), the next number up a double
 * holds, so that edgeOf reads back the unit written (2 parts in 10^16 more).
 */
export function toYears(count: number, unit: AgeUnit): number {
  let years = exactYears(count, unit);
  if (!Number.isInteger(count) || count <= 0) return years;
  // A few steps at most; past 2^53 every number is a whole count of years, and the exact years are kept.
  for (let step = 0; step < 8 && claimedBefore(years, unit); step++) years = nextUp(years);
  return claimedBefore(years, unit) ? exactYears(count, unit) : years;
}

/** An edge as a lab wrote it: a whole count of a unit, or (`whole` false) an age no whole count fits. */
interface Edge {
  count: number;
  unit: AgeUnit;
  whole: boolean;
}

const decimals = (n: number): number => {
  const s = String(n);
  const e = s.indexOf('e-');
  const dot = s.indexOf('.');
  if (e !== -1) return Number(s.slice(e + 2)) + (dot === -1 ? 0 : s.indexOf('e') - dot - 1);
  return dot === -1 ? 0 : s.length - dot - 1;
};

/**
 * The unit and count of a stored edge. First, the unit (y, mo, d, wk, h, in that order) whose whole count
 * toYears writes as exactly this number; else, for a decimal year as a person writes it, the largest of
 * y, mo, d, h whose whole count rounded to the decimals written gives it (0.0767 is 28 d, 0.0794 29 d,
 * 0.5 is 6 mo); else the age is no whole count of any unit, held as it is (in hours, to show).
 */
export function edgeOf(years: number): Edge {
  let edge = edges.get(years);
  if (edge === undefined) {
    // An import reads the same few ages thousands of times: 0, 18, 120, 28 d.
    if (edges.size >= 4096) edges.clear();
    edge = readEdge(years);
    edges.set(years, edge);
  }
  return edge;
}

const edges = new Map<number, Edge>();

function readEdge(years: number): Edge {
  if (years === 0) return { count: 0, unit: 'y', whole: true };
  for (const unit of CLAIM_ORDER) {
    const count = Math.round(years * PER_YEAR[unit]);
    if (count > 0 && toYears(count, unit) === years) return { count, unit, whole: true };
  }
  const half = 0.5 * 10 ** -decimals(years) * (1 + 1e-9);
  for (const unit of ['y', 'mo', 'd', 'h'] as const) {
    const count = Math.round(years * PER_YEAR[unit]);
    if (count > 0 && Math.abs(exactYears(count, unit) - years) <= half) return { count, unit, whole: true };
  }
  return { count: years * PER_YEAR.h, unit: 'h', whole: false };
}

/** `28 d`, `11 mo`, `36 h`, `17 y`: an edge as a lab writes it, never a fraction of a year. */
export function formatAge(years: number, unit?: AgeUnit): string {
  const e = edgeOf(years);
  const u = years === 0 && unit ? unit : e.unit;
  return `${e.whole ? e.count : Number(e.count.toFixed(2))} ${u}`;
}

/** `18–65 y`, `0–28 d`, `29 d–11 mo`, `≥ 18 y`: a band as a lab writes it (0 takes the other end's unit). */
export function formatAgeBand(ageMin: number | undefined, ageMax: number | undefined): string {
  if (ageMin === undefined && ageMax === undefined) return '';
  if (ageMin === undefined) return `≤ ${formatAge(ageMax!)}`;
  if (ageMax === undefined) return `≥ ${formatAge(ageMin)}`;
  const hi = edgeOf(ageMax);
  const lo = ageMin === 0 ? { ...hi, count: 0, whole: true } : edgeOf(ageMin);
  const [a, b] = [formatAge(ageMin, hi.unit), formatAge(ageMax)];
  return lo.unit === hi.unit && lo.whole && hi.whole ? `${lo.count}–${b}` : `${a}–${b}`;
}

/** The smaller of two units: both ends of a FHIR Range share it. */
export const smaller = (a: AgeUnit, b: AgeUnit): AgeUnit =>
  SMALLEST_FIRST.indexOf(a) <= SMALLEST_FIRST.indexOf(b) ? a : b;

/** Where a band starts and where the ages it covers end, in exact years: [start, end). */
export function spanOf(ageMin: number | undefined, ageMax: number | undefined): [number, number] {
  const start = ageMin === undefined ? 0 : startOf(ageMin);
  if (ageMax === undefined) return [start, Number.POSITIVE_INFINITY];
  const e = edgeOf(ageMax);
  // A band up to 28 d covers the whole 28th day; up to an age no count fits, that age itself.
  return [start, e.whole ? exactYears(e.count + 1, e.unit) : ageMax + 2e-9];
}

function startOf(ageMin: number): number {
  const e = edgeOf(ageMin);
  return e.whole ? exactYears(e.count, e.unit) : ageMin;
}

/** Two ages equal but for the rounding of their division (a billionth of a year, 30 ms). */
export const EPSILON = 1e-9;

/** Whether an age (exact years) lies in a band: from its start, and before the end of its last unit. */
export function inBand(age: number, ageMin: number | undefined, ageMax: number | undefined): boolean {
  const [start, end] = spanOf(ageMin, ageMax);
  return age >= start - EPSILON && age < end - EPSILON;
}

// A number may come in exponent form (1e-7): it is how JavaScript, and so the CSV export, prints a tiny age.
const AGE = /^(\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*(a|y|mo|wk|d|h)?$/;
const AGE_FORMS = 'years (17, 0.0767) or a count with its unit: 36h, 28d, 2wk, 11mo, 17y (or 17a)';

/** One age: `30`, `30y`, `36h`, `28d`, `2wk`, `11mo`; years when no unit is given (nor `unit`). */
export function parseAge(text: string, what: string, unit?: AgeUnit): number {
  const m = text.length <= 40 ? AGE.exec(text.trim()) : null;
  const n = m ? Number(m[1]) : Number.NaN;
  if (!m || !Number.isFinite(n))
    throw new UsageError(`${what} "${text.slice(0, 40)}" is not an age; write ${AGE_FORMS}`);
  const u = m[2] === undefined ? unit : unitOf(m[2]);
  return u === undefined ? n : toYears(n, u);
}

/** An age band: `18-65`, `0-72h`, `1-12mo`, `29d-1y`; a side without a unit takes the other side's. */
export function parseAgeBand(text: string, what: string): [number | undefined, number | undefined] {
  const m = /^([^-]*)-([^-]*)$/.exec(text.trim()) ?? /^([^.]*)\.\.([^.]*)$/.exec(text.trim());
  if (!m || (m[1] === '' && m[2] === ''))
    throw new UsageError(
      `${what} "${text.slice(0, 40)}" is not an age band; write it as 18-65, 0-72h, 1-11mo or 29d-1y`,
    );
  const unitIn = (s: string) => {
    const u = AGE.exec(s.trim())?.[2];
    return u === undefined ? undefined : unitOf(u);
  };
  const [lo, hi] = [m[1], m[2]];
  const a = lo === '' ? undefined : parseAge(lo, what, unitIn(hi));
  const b = hi === '' ? undefined : parseAge(hi, what, unitIn(lo));
  return [a, b];
}

/**
 * Ages written with their unit in a record's ranges (`"ageMax": "28d"`, as a JSON catalog may have them)
 * turned into the years the service stores, in place; each one that is not an age is a field error.
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
        if (v === undefined || (typeof v === 'number' && Number.isFinite(v) && v >= 0)) continue;
        if (typeof v !== 'string') {
          // true, null, -1 or 1e400 (read as Infinity): named as an age written wrong, with the forms.
          const shown = typeof v === 'number' ? String(v) : String(JSON.stringify(v)).slice(0, 40);
          errors.push({ path, message: `${shown} is not an age; write ${AGE_FORMS}` });
          continue;
        }
        try {
          range[field] = parseAge(v, path);
        } catch (err) {
          errors.push({ path, message: (err as Error).message.slice(path.length + 1) });
        }
      }
    });
  }
  return errors;
}
