import { UsageError } from '../errors.js';

// The one reader of a number a person types (a flag, a range's short form, a spreadsheet's cell) and the one
// writer of a number we export. A person writes digits, a minus sign where a negative makes sense and at
// most one decimal point (a decimal comma only where a file declares it, as a `;` sheet does). Number()
// alone also reads `0x10`, `0b1`, `1e3`, `1_000` (no: NaN) and `Infinity`, none of which a lab writes, so
// every read goes through here and gets the same sentence when refused. What is read keeps the decimals it
// was written with (`8.0` has 1): the value alone, a double, cannot say it.

/** A number as written: its value, and how many digits it had after the decimal point. */
export interface Decimal {
  value: number;
  decimals: number;
}

export interface NumberRules {
  /** A leading `-` is allowed (a bound, a timestamp); elsewhere (a count, a duration) it is refused. */
  negative?: boolean;
  /** The decimal separator is `,` (or `.`): a sheet that declares it, as Excel's `;` sheets do. */
  comma?: boolean;
}

/** Longer than any number a person types; a longer text is refused before it is looked at. */
const MAX_LENGTH = 40;
/**
 * The most significant digits a double can tell apart: every double's shortest text (what JSON and the
 * server write, `7.220000000000001`) has at most 17, so each reads back as the same number; an 18th would be
 * dropped without a word.
 */
const MAX_DIGITS = 17;

/** Why a text was refused, in the words every reader uses. */
export function numberRule(rules: NumberRules = {}): string {
  const sign = rules.negative ? 'an optional minus sign, ' : '';
  const point = rules.comma ? 'one decimal comma or point' : 'at most one decimal point';
  const example = `${rules.negative ? '-' : ''}${rules.comma ? '3,5' : '3.5'}`;
  return `must be a number: ${sign}digits and ${point}, as in ${example}`;
}

/** What is wrong with the character at `i` of a text that is no number: the first fault a person would fix. */
function charFault(text: string, i: number, rules: NumberRules): string {
  const c = text[i];
  if (c === '.' || (c === ',' && rules.comma)) return 'a second decimal point';
  if (c === ',') return 'a comma, where the decimal separator is a point';
  if (c === '-') return i === 0 ? 'a minus sign, where no negative is taken' : 'a minus sign after the first digit';
  if (c === '+') return 'a plus sign';
  if (/\s/.test(c)) return 'a space';
  if (/\p{L}/u.test(c)) return `the letter ${JSON.stringify(c)}`;
  if (/\p{N}/u.test(c)) return `the digit ${JSON.stringify(c)}, which is not one of 0-9`;
  return `the character ${JSON.stringify(c)}`;
}

/** The number a text says, or what is wrong with it (the reason numberError gives). */
function scan(text: string, rules: NumberRules): Decimal | string {
  if (text.length === 0) return 'nothing';
  if (text.length > MAX_LENGTH) return `more than ${MAX_LENGTH} characters`;
  let i = 0;
  let negative = false;
  if (text[0] === '-' && rules.negative) {
    negative = true;
    i = 1;
  }
  let digits = '';
  let point = -1;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) digits += text[i];
    else if ((c === 46 || (c === 44 && rules.comma)) && point === -1) point = digits.length;
    else return charFault(text, i, rules);
  }
  if (digits === '') return 'no digits';
  const decimals = point === -1 ? 0 : digits.length - point;
  const significant = digits.replace(/^0+/, '').length;
  if (significant > MAX_DIGITS)
    return `${significant} significant digits, more than the ${MAX_DIGITS} a number is kept to`;
  const plain = point === -1 ? digits : `${digits.slice(0, point) || '0'}.${digits.slice(point) || '0'}`;
  const value = Number(plain);
  return { value: negative && value !== 0 ? -value : value, decimals };
}

/**
 * The number a person wrote, or undefined when the text is not one by the rules: `3.5`, `.5`, `5.`, `-2`
 * (with `negative`), `3,5` (with `comma`); never `0x10`, `1e3`, `1_000`, `+1`, `Infinity`, spaces inside, or
 * more than 17 significant digits. Linear: one pass over at most 40 characters.
 */
export function parseDecimal(text: string, rules: NumberRules = {}): Decimal | undefined {
  const read = scan(text, rules);
  return typeof read === 'string' ? undefined : read;
}

/** The number a person wrote, or a usage error naming `what` (a flag, a field, a cell) and the text given. */
export function readDecimal(text: string, what: string, rules: NumberRules = {}): Decimal {
  const read = parseDecimal(text, rules);
  if (read === undefined) throw new UsageError(numberError(what, text, rules));
  return read;
}

/**
 * `max: must be a number: … (got "1.2.3": a second decimal point)`: the one sentence for a number refused,
 * saying what is wrong with the text given.
 */
export function numberError(what: string, text: string, rules: NumberRules = {}): string {
  const fault = numberFault(text, rules);
  return `${what}: ${numberRule(rules)} (got ${JSON.stringify(text.slice(0, MAX_LENGTH))}${fault ? `: ${fault}` : ''})`;
}

/**
 * What is wrong with a text that looks like a number (`a second decimal point`); undefined when it is one, or
 * holds no digit at all (`lots`, where the text given says it already).
 */
export function numberFault(text: string, rules: NumberRules = {}): string | undefined {
  const read = scan(text, rules);
  return typeof read === 'string' && /\p{N}/u.test(text) ? read : undefined;
}

/**
 * Digits after the decimal point in the shortest text that gives `n` back (as JavaScript writes it, exponent
 * or not): 2.2 → 1, 500 → 0, 1e-7 → 7, 1.5e-7 → 8.
 */
export function decimalsOf(n: number): number {
  if (!Number.isFinite(n)) return 0;
  const s = String(Math.abs(n));
  const e = s.indexOf('e');
  const dot = s.indexOf('.');
  const mantissa = dot === -1 ? 0 : (e === -1 ? s.length : e) - dot - 1;
  return Math.max(0, mantissa - (e === -1 ? 0 : Number(s.slice(e + 1))));
}

/**
 * `n` in plain decimal digits, never an exponent (`0.0000001`, not `1e-7`; `1000000000000000000000`, not
 * `1e+21`), with at least `decimals` digits after the point: zeros are added, no digit is ever rounded away
 * (a precision below a value's own decimals shows the value whole; lint warns of it). The one writer of a
 * number in every export and view, so that what we write the reader above reads back.
 */
export function plainDecimal(n: number, decimals = 0): string {
  if (!Number.isFinite(n)) return String(n);
  const s = String(Math.abs(n));
  const e = s.indexOf('e');
  let whole: string;
  let fraction: string;
  if (e === -1) {
    const dot = s.indexOf('.');
    // Most numbers (`3.5`, `120`) are their own text, unless asked for more places than they are written with.
    if ((dot === -1 ? 0 : s.length - dot - 1) >= decimals) return n < 0 ? `-${s}` : s;
    [whole, fraction] = dot === -1 ? [s, ''] : [s.slice(0, dot), s.slice(dot + 1)];
  } else {
    const exp = Number(s.slice(e + 1));
    const mantissa = s.slice(0, e);
    const dot = mantissa.indexOf('.');
    const digits = mantissa.replace('.', '');
    const point = (dot === -1 ? mantissa.length : dot) + exp;
    if (point <= 0) [whole, fraction] = ['0', '0'.repeat(-point) + digits];
    else if (point >= digits.length) [whole, fraction] = [digits + '0'.repeat(point - digits.length), ''];
    else [whole, fraction] = [digits.slice(0, point), digits.slice(point)];
  }
  const places = Math.max(fraction.length, Math.min(Math.max(0, Math.trunc(decimals)), 100));
  fraction = fraction.padEnd(places, '0');
  return `${n < 0 ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * The decimals a bound is written with: its precision field, or its own decimals where it has more. A
 * precision is the fewest places a bound is shown with, never a rounding (`7.220000000000001` at precision 1
 * is written whole), so a precision at or below a value's own decimals says nothing the value does not.
 */
export const precisionOf = (value: number, precision: unknown): number =>
  Math.max(typeof precision === 'number' ? precision : 0, decimalsOf(value));

/**
 * The precision field a number read from text sets: the decimals written, where they say more than the
 * value does (`8.0` → 1, `0.10` → 2); undefined where the value already says it (`8`, `0.1`), so that a
 * catalog without precision fields reads back without them.
 */
export const writtenPrecision = (d: Decimal): number | undefined =>
  d.decimals > decimalsOf(d.value) ? d.decimals : undefined;

const rawJSON = (JSON as unknown as { rawJSON: (text: string) => unknown }).rawJSON;

/**
 * A number as a JSON literal at its precision (`8.0`, `0.0000001`): what JSON.stringify writes for it as is.
 * FHIR's decimals keep their trailing zeros so (https://hl7.org/fhir/R4/json.html#primitive).
 */
export const decimalLiteral = (n: number, precision?: unknown): unknown =>
  Number.isFinite(n) ? rawJSON(plainDecimal(n, typeof precision === 'number' ? precision : 0)) : n;

/** A number JSON.stringify would write with an exponent (`1e-7`, `1e+21`). */
const EXPONENT = /\de[-+]\d/;

/**
 * JSON.stringify, but every number in plain digits (`0.0000001`, never `1e-7`), so that a spreadsheet or a
 * person reading the file reads what the CLI's reader does, and no line break but between lines. Most texts
 * have no such number: they are written once; the rest again with each such number as a raw literal.
 */
export function jsonText(value: unknown, space?: number): string {
  const text = JSON.stringify(value, null, space);
  if (text === undefined) return text;
  const plain = !EXPONENT.test(text)
    ? text
    : JSON.stringify(
        value,
        (_k, v: unknown) => (typeof v === 'number' && /e/.test(String(v)) ? decimalLiteral(v) : v),
        space,
      );
  return BREAKS.test(plain)
    ? plain.replace(BREAKS_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : plain;
}

// NEL and the Unicode line and paragraph separators, which JSON.stringify leaves raw and Python's splitlines
// and JavaScript's line terminators split at: escaped, an NDJSON line stays one line to every reader. They
// stand only inside strings, where the escape reads back as the same character.
const BREAKS = /[\u0085\u2028\u2029]/;
const BREAKS_ALL = /[\u0085\u2028\u2029]/g;

/** A value as text in a view or a cell: nothing for null, objects as JSON, numbers in plain digits. */
export const valueText = (v: unknown): string =>
  v === undefined || v === null
    ? ''
    : typeof v === 'object'
      ? jsonText(v)
      : typeof v === 'number'
        ? plainDecimal(v)
        : String(v);
