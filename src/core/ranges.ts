import { UsageError } from '../errors.js';

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
}

const num = (n: number | undefined, precision?: number) =>
  n === undefined ? '' : precision !== undefined ? n.toFixed(precision) : String(n);

function span(lo: string, hi: string): string {
  if (lo && hi) return `${lo}–${hi}`;
  if (lo) return `≥ ${lo}`;
  if (hi) return `≤ ${hi}`;
  return '';
}

/** `3.5–5.1 mmol/L (male, 18–65 y)`: how a lab admin reads a range. */
export function formatRange(r: RangeLike, unit?: string, siunit?: string): string {
  let text = span(num(r.min, r.minPrecision), num(r.max, r.maxPrecision));
  if (text && unit) text += ` ${unit}`;
  const si = span(num(r.simin), num(r.simax));
  if (si) text = text ? `${text} [${si}${siunit ? ` ${siunit}` : ''}]` : `${si}${siunit ? ` ${siunit}` : ''}`;
  const who: string[] = [];
  if (r.sex && r.sex !== 'all') who.push(r.sex);
  const age = span(num(r.ageMin), num(r.ageMax));
  if (age) who.push(`${age} y`);
  return who.length > 0 ? `${text} (${who.join(', ')})` : text;
}

const NUMBER = '-?\\d+(?:\\.\\d+)?';
const BOUNDS = new RegExp(`^(${NUMBER})?(?:-|\\.\\.)(${NUMBER})?$`);

function bounds(text: string, what: string): [number | undefined, number | undefined] {
  // "3.5-5.1", "3.5..5.1", "..5.1", "3.5.."; a lone number is an exact value.
  if (new RegExp(`^${NUMBER}$`).test(text)) return [Number(text), Number(text)];
  const m = BOUNDS.exec(text);
  if (!m || (m[1] === undefined && m[2] === undefined))
    throw new UsageError(`${what} "${text}" is not a range; write it as MIN-MAX, MIN.. or ..MAX`);
  return [m[1] === undefined ? undefined : Number(m[1]), m[2] === undefined ? undefined : Number(m[2])];
}

/**
 * Parses the short range form of --reference-range and --panic-range:
 * `3.5-5.1 sex=male age=18-65 si=3.5-5.1 id=rr_1`.
 */
export function parseRangeSpec(spec: string, flag = '--reference-range'): RangeLike {
  const [first, ...rest] = spec.trim().split(/\s+/);
  if (!first) throw new UsageError(`${flag} is empty; write it as "3.5-5.1 sex=male age=18-65"`);
  const out: RangeLike = {};
  const parts = first.includes('=') ? [first, ...rest] : rest;
  if (!first.includes('=')) [out.min, out.max] = bounds(first, flag);
  for (const part of parts) {
    const [key, value] = part.split('=', 2);
    if (value === undefined || value === '') throw new UsageError(`${flag}: "${part}" needs a value, as in key=value`);
    if (key === 'sex') out.sex = value;
    else if (key === 'age') [out.ageMin, out.ageMax] = bounds(value, `${flag} age`);
    else if (key === 'si') [out.simin, out.simax] = bounds(value, `${flag} si`);
    else if (key === 'id') out.id = value;
    else if (key === 'precision') out.minPrecision = out.maxPrecision = Number(value);
    else throw new UsageError(`${flag}: unknown key "${key}"; use sex, age, si, precision or id`);
  }
  for (const k of Object.keys(out) as (keyof RangeLike)[]) if (out[k] === undefined) delete out[k];
  return out;
}
