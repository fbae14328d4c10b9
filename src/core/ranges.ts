import { UsageError } from '../errors.js';
import { canon, formatAgeBand, parseAgeBand } from './ages.js';
import { type Decimal, decimalsOf, plainDecimal, readDecimal, writtenPrecision } from './number.js';
import { sexOf } from './words.js';

export interface RangeLike {
  id?: string;
  min?: number;
  max?: number;
  simin?: number;
  simax?: number;
  sex?: string;
  ageMin?: number;
  ageMax?: number;
  minPrecision?: number;
  maxPrecision?: number;
  siminPrecision?: number;
  simaxPrecision?: number;
}

const SIGNED = { negative: true };

/** A bound at its precision (`8.0`), in plain digits; a precision never rounds a digit away. */
const num = (n: number | undefined, precision?: number) => (n === undefined ? '' : plainDecimal(n, precision));

function span(lo: string, hi: string): string {
  if (lo && hi) return `${lo}–${hi}`;
  if (lo) return `≥ ${lo}`;
  if (hi) return `≤ ${hi}`;
  return '';
}

/** A range's bounds in both units and whom it is for, each pair of bounds written by `pair`. */
function rangeText(r: RangeLike, pair: (lo: string, hi: string) => string, unit?: string, siunit?: string): string {
  let text = pair(num(r.min, r.minPrecision), num(r.max, r.maxPrecision));
  if (text && unit) text += ` ${unit}`;
  const si = pair(num(r.simin, r.siminPrecision), num(r.simax, r.simaxPrecision));
  if (si) text = text ? `${text} [${si}${siunit ? ` ${siunit}` : ''}]` : `${si}${siunit ? ` ${siunit}` : ''}`;
  const who = [r.sex && r.sex !== 'all' ? r.sex : '', formatAgeBand(r.ageMin, r.ageMax)].filter(Boolean);
  return who.length > 0 ? `${text} (${who.join(', ')})` : text;
}

/** `3.5–5.1 mmol/L (male, 18–65 y)`: how a lab admin reads a range. */
export function formatRange(r: RangeLike, unit?: string, siunit?: string): string {
  return rangeText(r, span, unit, siunit);
}

/** Critical limits: `< 2.5 or > 6.5`, `< 2.5`, `> 6.5`. */
const limitsText = (lo: string, hi: string) => (lo && hi ? `< ${lo} or > ${hi}` : lo ? `< ${lo}` : hi ? `> ${hi}` : '');

/**
 * `critical < 2.5 or > 6.5 mmol/L (male, 18–65 y)`: a panic range as the critical limits it holds. FHIR R4
 * defines the `critical` range category as the range outside of which results are critical
 * (http://terminology.hl7.org/CodeSystem/observation-range-category): below `min` (`simin`) or above `max`
 * (`simax`) is critical, and a one-sided range has one limit.
 */
export function formatCritical(r: RangeLike, unit?: string, siunit?: string, prefix = 'critical '): string {
  return `${prefix}${rangeText(r, limitsText, unit, siunit)}`;
}

const NUMBER = '-?\\d+(?:\\.\\d+)?';
const BOUNDS = new RegExp(`^(${NUMBER})?(?:-|\\.\\.)(${NUMBER})?$`);

type Pair = [Decimal | undefined, Decimal | undefined];

/** One bound's text, matched by NUMBER, through the one number reader (which keeps its decimals). */
const decimal = (x: string | undefined, what: string) => (x === undefined ? undefined : readDecimal(x, what, SIGNED));

function bounds(text: string, what: string): Pair {
  // "3.5-5.1", "3.5..5.1", "..5.1", "3.5.."; a lone number is an exact value.
  if (new RegExp(`^${NUMBER}$`).test(text)) return [decimal(text, what), decimal(text, what)];
  const m = BOUNDS.exec(text);
  if (!m || (m[1] === undefined && m[2] === undefined))
    throw new UsageError(`${what} "${text}" is not a range; write it as MIN-MAX, MIN.. or ..MAX`);
  return [decimal(m[1], what), decimal(m[2], what)];
}

const LIMITS = new RegExp(`^(?:<(${NUMBER})|>(${NUMBER})|(${NUMBER})-(${NUMBER}))$`);
const LIMIT_FORMS = 'write "<2.5" (critical below 2.5), ">6.5" (critical above 6.5) or "2.5-6.5" (both limits)';

/**
 * The critical limits of a panic range: `<2.5`, `>6.5` or `2.5-6.5`. The open forms `..2.5` and `6.5..`
 * are refused, not read: earlier development builds read them as the zone of critical values, the other way round.
 */
function limits(text: string, what: string): Pair {
  const m = LIMITS.exec(text);
  if (!m) {
    const open = text.startsWith('..') || text.endsWith('..');
    throw new UsageError(
      `${what} "${text}" is not ${open ? 'a form for critical limits' : 'a set of critical limits'}; ${LIMIT_FORMS}`,
    );
  }
  const n = (x: string | undefined) => decimal(x, what);
  return m[1] !== undefined ? [n(m[1]), undefined] : m[2] !== undefined ? [undefined, n(m[2])] : [n(m[3]), n(m[4])];
}

/**
 * Sets a pair of bounds and, where the text says more than the value (`8.0`, `0.10`), the precision each was
 * written with; a precision given (`precision=1`) is set afterwards and wins.
 */
function setPair(out: RangeLike, [lo, hi]: Pair, si: boolean): void {
  const [min, max, minP, maxP] = si
    ? (['simin', 'simax', 'siminPrecision', 'simaxPrecision'] as const)
    : (['min', 'max', 'minPrecision', 'maxPrecision'] as const);
  out[min] = lo?.value;
  out[max] = hi?.value;
  out[minP] = lo && writtenPrecision(lo);
  out[maxP] = hi && writtenPrecision(hi);
}

/**
 * Parses the short range form of --reference-range, `3.5-5.1 sex=male age=18-65 si=3.5-5.1 id=rr_1`, and,
 * with `panic`, of --panic-range, whose bounds are critical limits: `<2.5 si=<0.8`, `>6.5`, `2.5-6.5`.
 */
export function parseRangeSpec(spec: string, flag = '--reference-range', panic = false): RangeLike {
  const [first, ...rest] = spec.trim().split(/\s+/);
  if (!first)
    throw new UsageError(`${flag} is empty; write it as "${panic ? '2.5-6.5' : '3.5-5.1'} sex=male age=18-65"`);
  const out: RangeLike = {};
  const parts = first.includes('=') ? [first, ...rest] : rest;
  const read = panic ? limits : bounds;
  let precision: Decimal | undefined;
  if (!first.includes('=')) setPair(out, read(first, flag), false);
  for (const part of parts) {
    const [key, value] = part.split('=', 2);
    if (value === undefined || value === '') throw new UsageError(`${flag}: "${part}" needs a value, as in key=value`);
    if (key === 'sex') out.sex = sexOf(value) ?? value;
    // `age=any` (or `all`, as sex=all) is every age: no band (what a set needs to widen a band on purpose).
    else if (key === 'age')
      [out.ageMin, out.ageMax] = /^(any|all)$/.test(value) ? [] : parseAgeBand(value, `${flag} age`);
    else if (key === 'si') setPair(out, read(value, `${flag} si`), true);
    else if (key === 'id') out.id = value;
    else if (key === 'precision') precision = readDecimal(value, `${flag} precision`);
    else throw new UsageError(`${flag}: unknown key "${key}"; use sex, age, si, precision or id`);
  }
  // The schema then holds it to a whole number from 0 to 10, as any precision field.
  if (precision !== undefined) out.minPrecision = out.maxPrecision = precision.value;
  for (const k of Object.keys(out) as (keyof RangeLike)[]) if (out[k] === undefined) delete out[k];
  return out;
}

const BOUND_PRECISIONS = [
  ['min', 'minPrecision'],
  ['max', 'maxPrecision'],
  ['simin', 'siminPrecision'],
  ['simax', 'simaxPrecision'],
] as const;

/**
 * A range as plans compare it: a precision that says no more than its bound's own decimals (`0.1` at
 * precision 1, `7.220000000000001` at 1: a precision never rounds) is left out, so `{min: 0.1, minPrecision:
 * 1}` and `{min: 0.1}` are the same range, while `8.0` (`{min: 8, minPrecision: 1}`) and `8` differ. Anything
 * but a range object is given back as it is.
 */
export function comparableRange(r: unknown): unknown {
  if (r === null || typeof r !== 'object' || Array.isArray(r)) return r;
  const range = r as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const [bound, precision] of BOUND_PRECISIONS) {
    const value = range[bound];
    const p = range[precision];
    if (typeof value === 'number' && typeof p === 'number' && p <= decimalsOf(value)) {
      out ??= { ...range };
      delete out[precision];
    }
  }
  // An age a whole count of a unit is rounds to in 15 digits is that age (`12.000000000000002` is 12 y).
  for (const end of ['ageMin', 'ageMax']) {
    const age = range[end];
    if (typeof age === 'number' && Number.isFinite(age) && age >= 0 && canon(age) !== age) {
      out ??= { ...range };
      out[end] = canon(age);
    }
  }
  return out ?? r;
}
