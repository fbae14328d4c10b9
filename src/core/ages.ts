import { UsageError } from '../errors.js';
import { type AgeUnit, canon, edgeOf, exactYears, lastUnit } from '../schemas/ages.js';
import { parseDecimal, plainDecimal } from './number.js';

// The lab's completed-unit notation, read into the API's exact years [ageMin, ageMax) and written back
// (schemas/ages.ts holds the convention itself: one number per age, and the one display rule).
export {
  type AgeUnit,
  canon,
  countIn,
  EPSILON,
  edgeOf,
  exactYears,
  formatAge,
  formatAgeBand,
  formatAgeEnd,
  inBand,
  lastUnit,
  PER_YEAR,
  SHOWN,
  spanOf,
  UCUM_CODE,
  unitOf,
} from '../schemas/ages.js';

// The count is read by the one reader of numbers (number.ts): digits and one decimal point, no exponent.
const AGE = /^(<\s*)?([0-9.]+)\s*([A-Za-z]+)?$/;
const AGE_FORMS = 'years (17, 2.5) or a count with its unit: 36h, 28d, 2wk, 11mo, 17y (or 17a, 28 days, 11 months)';

/** The words labs write for each unit, in any case: `28 days`, `36 hrs`, `11 months`. */
const UNIT_WORDS: Record<string, AgeUnit> = Object.fromEntries(
  (
    [
      ['h', ['h', 'hr', 'hrs', 'hour', 'hours']],
      ['d', ['d', 'day', 'days']],
      ['wk', ['wk', 'wks', 'w', 'week', 'weeks']],
      ['mo', ['mo', 'mos', 'month', 'months']],
      ['y', ['a', 'y', 'yr', 'yrs', 'year', 'years']],
    ] as const
  ).flatMap(([unit, words]) => words.map((w) => [w, unit])),
);
const wordUnit = (word: string): AgeUnit | undefined => UNIT_WORDS[word.toLowerCase()];

/** The count and unit of an age as written; years when no unit is given (nor `unit`). */
function read(text: string, what: string, unit?: AgeUnit): { count: number; unit: AgeUnit; below: boolean } {
  const m = text.length <= 40 ? AGE.exec(text.trim()) : null;
  const n = m ? (parseDecimal(m[2])?.value ?? Number.NaN) : Number.NaN;
  const written = m?.[3] === undefined ? undefined : wordUnit(m[3]);
  if (!m || !Number.isFinite(n) || (m[3] !== undefined && written === undefined))
    throw new UsageError(`${what} "${text.slice(0, 40)}" is not an age; write ${AGE_FORMS}`);
  return { count: n, unit: written ?? unit ?? 'y', below: m[1] !== undefined };
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
    return u === undefined ? undefined : wordUnit(u);
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

/** An age as a catalog cell writes it: `29d`, `18y`, `0.0767y` (plain digits, as number.ts writes them). */
function ageText(years: number): string {
  const e = edgeOf(years);
  return e ? `${e.count}${e.unit}` : `${plainDecimal(canon(years))}y`;
}

/** A band's upper end as a catalog cell writes it: `28d`, `120y`, `<0.0767y`. */
function ageEndText(ageMax: number, ageMin = 0): string {
  const last = lastUnit(ageMin, ageMax);
  return last ? `${last.count}${last.unit}` : `<${ageText(ageMax)}`;
}

/**
 * A range with its ages as a catalog writes them, in the lab's notation: `"ageMin": "29d"` the first age,
 * `"ageMax": "11mo"` the last completed unit (readAgesIn and the CSV reader read them back to the same band).
 */
export function withAgeText<R extends { ageMin?: unknown; ageMax?: unknown }>(r: R): R {
  // Each as the one number that stands for it: 129.99999999986952 y is 130 y, written so, not as 1139580h.
  const [lo, hi] = [r.ageMin, r.ageMax].map((v) => (typeof v === 'number' ? canon(v) : v));
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
