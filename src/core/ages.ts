import { UsageError } from '../errors.js';

/**
 * Ages in the service's unit (years), written in UCUM's units of time: `a` (year, 365.25 d), `mo` (a/12),
 * `wk` (7 d), `d`, `h` (https://ucum.org/ucum, §31 and §32). A year is spelled `y` too, as labs write it.
 */
export const PER_YEAR: Record<string, number> = { a: 1, y: 1, mo: 12, wk: 365.25 / 7, d: 365.25, h: 365.25 * 24 };

/** The units a view and FHIR use, largest first: an age is shown in the largest in which it is whole. */
export const AGE_UNITS = ['a', 'mo', 'wk', 'd', 'h'] as const;
export type AgeUnit = (typeof AGE_UNITS)[number];

const AGE = /^(\d+(?:\.\d+)?)\s*(a|y|mo|wk|d|h)?$/;

/** Years from a value in a UCUM unit, computed one way everywhere, so a round trip gives back the same number. */
export const toYears = (value: number, unit: string): number =>
  unit === 'a' || unit === 'y' ? value : value / PER_YEAR[unit];

/** One age: `30`, `30y`, `72h`, `28d`, `2wk`, `12mo`; years when no unit is given. */
export function parseAge(text: string, what: string, unit?: string): number {
  const m = AGE.exec(text.trim());
  if (!m) throw new UsageError(`${what} "${text}" is not an age; write it as 30, 30y, 12mo, 2wk, 28d or 72h`);
  return toYears(Number(m[1]), m[2] ?? unit ?? 'a');
}

/** An age band: `18-65`, `0-72h`, `1-12mo`, `29d-1y`; a side without a unit takes the other side's. */
export function parseAgeBand(text: string, what: string): [number | undefined, number | undefined] {
  const m = /^([^-]*)-([^-]*)$/.exec(text.trim()) ?? /^([^.]*)\.\.([^.]*)$/.exec(text.trim());
  if (!m || (m[1] === '' && m[2] === ''))
    throw new UsageError(`${what} "${text}" is not an age band; write it as 18-65, 0-72h, 1-12mo or 29d-1y`);
  const unitOf = (s: string) => AGE.exec(s.trim())?.[2];
  const [lo, hi] = [m[1], m[2]];
  const a = lo === '' ? undefined : parseAge(lo, what, unitOf(hi));
  const b = hi === '' ? undefined : parseAge(hi, what, unitOf(lo));
  return [a, b];
}

/** The largest unit in which an age in years is whole (to a billionth), with its value: 3 d for 72 h. */
export function ageIn(years: number): { value: number; unit: AgeUnit } {
  for (const unit of AGE_UNITS) {
    const value = years * PER_YEAR[unit];
    if (Math.abs(value - Math.round(value)) < 1e-9 * Math.max(1, value)) return { value: Math.round(value), unit };
  }
  return { value: Number((years * PER_YEAR.h).toPrecision(12)), unit: 'h' };
}

/** `3 d`, `29 d`, `18 y`: an age as a person reads it, never a fraction of a year. */
export function formatAge(years: number): string {
  const { value, unit } = ageIn(years);
  return `${value} ${unit === 'a' ? 'y' : unit}`;
}

/**
 * The first age past a band's upper bound, in the unit it counts in: a band up to 17 y covers 17 y and 364 d,
 * one up to 28 d (or 4 wk) covers 28 d and 23 h, as labs write bands in completed years, days or hours.
 */
export function pastBand(ageMax: number): number {
  for (const unit of ['a', 'd', 'h'] as const) {
    const value = ageMax * PER_YEAR[unit];
    if (Math.abs(value - Math.round(value)) < 1e-9 * Math.max(1, value)) return ageMax + 1 / PER_YEAR[unit];
  }
  return ageMax;
}

/** `18–65 y`, `0–3 d`, `29 d–1 y`, `≥ 18 y`: an age band as a person reads it; '' for none. */
export function formatAgeBand(ageMin: number | undefined, ageMax: number | undefined): string {
  if (ageMin === undefined && ageMax === undefined) return '';
  if (ageMin === undefined) return `≤ ${formatAge(ageMax!)}`;
  if (ageMax === undefined) return `≥ ${formatAge(ageMin)}`;
  const hi = ageIn(ageMax);
  // 0 is whole in every unit: it takes the other bound's.
  const lo = ageMin === 0 ? { value: 0, unit: hi.unit } : ageIn(ageMin);
  const name = (u: AgeUnit) => (u === 'a' ? 'y' : u);
  return lo.unit === hi.unit
    ? `${lo.value}–${hi.value} ${name(hi.unit)}`
    : `${lo.value} ${name(lo.unit)}–${hi.value} ${name(hi.unit)}`;
}
