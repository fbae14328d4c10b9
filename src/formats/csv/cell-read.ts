import { parseAge, parseAgeEnd } from '../../core/ages.js';
import { nearest } from '../../core/nearest.js';
import { type Decimal, numberError, parseDecimal } from '../../core/number.js';
import { SEX_WORDS, sexOf } from '../../core/words.js';
import { AGES, LIMIT_PAIRS, LISTS, NUMBERS, PRECISIONS, splitList } from './cells.js';

// One cell of a catalog sheet read as its field holds it (csv/catalog.ts reads the rows); a cell that cannot
// be read is told to `fault` with the sentence that says why, and reads as undefined.

/**
 * Why a `;` sheet's number with a point before three digits (`150.000`) is not read: the locales that write `;`
 * group thousands with a point (150000), elsewhere it is 150 to three decimals, and either reading of the
 * other's cell moves a limit a thousandfold. Undefined for any other text.
 */
function thousandsPoint(text: string, semicolon: boolean): string | undefined {
  const t = text.trim();
  if (!semicolon || !/^[-+]?[1-9][0-9]{0,2}\.[0-9]{3}$/.test(t)) return undefined;
  const [whole, decimals] = t.split('.');
  return (
    `"${t}" is ${whole}${decimals} where a point groups thousands (as in the locales that write ;) and ` +
    `${whole} where it is a decimal point; write ${whole}${decimals}, or ${whole},${decimals} for the decimals`
  );
}

/** A cell's value as its field holds it; in a `;` sheet (`semicolon`) with a decimal comma. */
export function readCell(c: string, value: string, semicolon: boolean, fault: (message: string) => void): unknown {
  if (NUMBERS.has(c)) {
    const grouped = thousandsPoint(value, semicolon);
    if (grouped !== undefined) {
      fault(`${c}: ${grouped}`);
      return undefined;
    }
    // A `;` sheet writes decimal commas (Excel in the locales that use `;`); a precision is never negative.
    const rules = { negative: !PRECISIONS.has(c), comma: semicolon };
    const read = parseDecimal(value, rules);
    if (read !== undefined) return read;
    fault(numberError(c, value, rules));
    return undefined;
  }
  if (AGES.has(c)) {
    try {
      const text = semicolon ? value.replace(',', '.') : value;
      return c === 'ageMin' ? parseAge(text, c) : parseAgeEnd(text, c);
    } catch (err) {
      fault((err as Error).message);
      return undefined;
    }
  }
  if (c === 'sex') {
    const sex = sexOf(value);
    if (sex !== undefined) return sex;
    const guess = nearest(value, Object.keys(SEX_WORDS));
    fault(
      `sex: must be all, male or female (or M, F) ` +
        `(got "${value.slice(0, 40)}")${guess ? `; did you mean ${SEX_WORDS[guess]}?` : ''}`,
    );
    return undefined;
  }
  if (LISTS.has(c)) return splitList(value);
  if (c === 'section') {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

/**
 * A critical limit as `help ranges` writes one: `<2.5` in a low limit's cell, `>6.5` in a high one's, read
 * as the number; the sign on the other side is an error naming the cell it belongs in.
 */
export function limitText(c: string, text: string, fault: (message: string) => void): string | undefined {
  const pair = LIMIT_PAIRS[c];
  const sign = text[0];
  if (pair === undefined || (sign !== '<' && sign !== '>')) return text;
  const rest = text.slice(1).trim();
  if ((sign === '<') === (pair[1] === 'low')) return rest;
  fault(
    `${c}: "${text.slice(0, 40)}" is a critical ` +
      `${sign === '<' ? 'low' : 'high'} limit (critical ${sign === '<' ? 'below' : 'above'} ${rest.slice(0, 40)}); ` +
      `write it under ${pair[0]}`,
  );
  return undefined;
}

/** The longest range cell read (`3.5 – 5.1 mmol/L` and its like are far shorter); a sex's line each. */
const CELL_CHARS = 80;

/**
 * A reference range in one cell as labs write it: `3.5-5.1`, `3.5 – 5.1 mmol/L`, `≤ 5.0`, `≥ 60`, each end
 * included as a range's bounds are. `<5` and `>60` leave their end out, which a range's inclusive bound cannot
 * hold without moving it: they are refused with the form to write. A unit after the numbers must be the
 * measure's (`unit`), checked by the caller.
 */
function rangeCellText(
  text: string,
  semicolon: boolean,
  fault: (message: string) => void,
): { min?: Decimal; max?: Decimal; unit?: string } | undefined {
  const rules = { negative: true, comma: semicolon };
  const num = (t: string) => parseDecimal(t.trim(), rules);
  const forms = 'write it as 3.5-5.1, 3.5 – 5.1 mmol/L, ≤ 5.0 or ≥ 60';
  // The length first: the pattern backtracks over a run of spaces, so a long cell would take hours.
  if (text.length > CELL_CHARS) {
    fault(`"${text.slice(0, 40)}…" (${text.length} characters) is longer than a range; ${forms}`);
    return undefined;
  }
  const m = /^\s*(<=|>=|≤|≥|<|>)?\s*([-+]?[0-9.,]+)\s*(?:(?:-|–|—|to)\s*([-+]?[0-9.,]+))?\s*(.*?)\s*$/.exec(text);
  if (!m) {
    fault(`"${text.slice(0, 40)}" is not a range; ${forms}`);
    return undefined;
  }
  const [, sign, a, b, unit] = m;
  if (sign === '<' || sign === '>') {
    const [inclusive, side] = sign === '<' ? ['≤', 'below'] : ['≥', 'above'];
    fault(
      `"${text.slice(0, 40)}" leaves ${a} itself out, which a range's bound (always included) ` +
        `cannot hold; write ${inclusive} and the last normal result ${side} it as reported ` +
        `(${inclusive} ${a} if ${a} is normal)`,
    );
    return undefined;
  }
  if (sign !== undefined && b !== undefined) {
    fault(`"${text.slice(0, 40)}" is not a range; ${forms}`);
    return undefined;
  }
  const grouped = thousandsPoint(a, semicolon) ?? (b === undefined ? undefined : thousandsPoint(b, semicolon));
  if (grouped !== undefined) {
    fault(grouped);
    return undefined;
  }
  const [first, second] = [num(a), b === undefined ? undefined : num(b)];
  if (first === undefined || (b !== undefined && second === undefined)) {
    fault(`"${text.slice(0, 40)}" is not a range; ${forms}`);
    return undefined;
  }
  const out =
    sign === '≤' || sign === '<='
      ? { max: first }
      : sign === '≥' || sign === '>='
        ? { min: first }
        : second === undefined
          ? undefined
          : { min: first, max: second };
  if (out === undefined) {
    fault(`"${text.slice(0, 40)}" is one number, not a range; ${forms}`);
    return undefined;
  }
  return unit ? { ...out, unit } : out;
}

/** Superscript digits and signs, as Excel users type a power of ten (`×10⁹/L`), in caret notation. */
const SUPERSCRIPT: Readonly<Record<string, string>> = {
  '⁰': '0',
  '¹': '1',
  '²': '2',
  '³': '3',
  '⁴': '4',
  '⁵': '5',
  '⁶': '6',
  '⁷': '7',
  '⁸': '8',
  '⁹': '9',
  '⁻': '-',
  '⁺': '+',
};

/**
 * A cell's unit against the measure's: `3.4-9.6 x 10^9/L` is 3.4 × 10^9/L to 9.6 × 10^9/L, so a multiplication
 * sign before a power of ten belongs to the numbers, and the unit is 10^9/L with or without it; `10⁹` is 10^9.
 */
function sameUnit(written: string, unit: unknown): boolean {
  const plain = (u: string) =>
    u
      .replace(/^[xX×]\s*(?=10[\^*⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺])/, '')
      .replace(/^10([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)/, (_, power: string) => `10^${[...power].map((c) => SUPERSCRIPT[c]).join('')}`);
  return typeof unit === 'string' && plain(written) === plain(unit);
}

/**
 * A cell giving each sex its range on a line of its own, as published sheets write them ("Male = 135-175 g/L",
 * a line break, "Female = 120-160 g/L", a line's trailing comma aside): each line's sex and range; undefined
 * when no line names a sex (the cell is one range), and faulted (null) when a line names neither sex or a
 * sex twice, as a range for more people or a second range for one sex is not what the lab wrote.
 */
function sexLines(text: string, fault: (message: string) => void): { sex: string; text: string }[] | undefined | null {
  if (text.length > 5 * CELL_CHARS) return undefined;
  const lines = text.split(/\r\n|\r|\n/).filter((l) => l.trim() !== '');
  if (lines.length < 2) return undefined;
  const read = lines.map((l) => {
    const at = l.search(/[=:]/);
    const sex = at === -1 ? undefined : sexOf(l.slice(0, at));
    return {
      sex,
      text: l
        .slice(at + 1)
        .trim()
        .replace(/[,;]$/, ''),
      line: l.trim(),
    };
  });
  if (read.every((r) => r.sex === undefined)) return undefined;
  const seen = new Map<string, number>();
  let bad = false;
  read.forEach((r, i) => {
    if (r.sex === undefined || r.sex === 'all') {
      fault(
        `the cell's line ${i + 1} ("${r.line.slice(0, 40)}") names neither sex; ` +
          'give each sex a line of its own (Male = 135-175 g/L, Female = 120-160 g/L)',
      );
      bad = true;
    } else if (seen.has(r.sex)) {
      fault(`the cell gives ${r.sex} two lines (${seen.get(r.sex)! + 1} and ${i + 1}); give each sex one line`);
      bad = true;
    } else seen.set(r.sex, i);
  });
  return bad ? null : read.map(({ sex, text }) => ({ sex: sex as string, text }));
}

/** The row a range cell stands on: its kind, its sheet's decimal comma, its measure's unit and unit column. */
interface Row {
  kind: string;
  semicolon: boolean;
  unit: unknown;
  unitColumn: boolean;
}

/**
 * A reference range's one cell (`3.5 – 5.1 mmol/L`) into `range`'s min and max, its unit the measure's: the
 * ranges the row holds, one for each sex when the cell gives each its own line.
 */
export function fillRangeCell(
  range: Record<string, unknown>,
  text: string,
  row: Row,
  fault: (message: string) => void,
): Record<string, unknown>[] {
  const said = (what: string) => (message: string) => fault(`${what}: ${message}`);
  if (row.kind !== 'reference') fault('referenceRange: a reference range cell stands on a reference row');
  else if (range.min !== undefined || range.max !== undefined)
    fault('referenceRange: the row gives its bounds in their own columns too; keep one of them');
  else {
    const bySex = sexLines(text, said('referenceRange'));
    if (bySex === undefined) fillOne(range, text, row, said('referenceRange'));
    else if (bySex !== null && range.sex !== undefined)
      fault("referenceRange: the cell gives each sex its range; leave the row's sex empty");
    else if (bySex !== null)
      return bySex.map((part) => {
        const one = { ...range, sex: part.sex };
        fillOne(one, part.text, row, said(`referenceRange (its ${part.sex} line)`));
        return one;
      });
  }
  return [range];
}

/** One range of a range cell: its ends into `range`, its unit (if written) checked against the measure's. */
function fillOne(range: Record<string, unknown>, text: string, row: Row, fault: (message: string) => void): void {
  const { unit } = row;
  const read = rangeCellText(text, row.semicolon, fault);
  // The unit known by this row: a measure's unit given only on a later row is not known yet.
  const none = row.unitColumn
    ? "and the measure's unit is not given by this row; give it on the measure's first row"
    : 'and the measure has no unit column';
  if (read?.unit !== undefined && !sameUnit(read.unit, unit))
    fault(
      `"${text.slice(0, 40)}" is in ${read.unit.slice(0, 20)}, ` +
        (unit === undefined ? none : `not the measure's unit ${String(unit)}`),
    );
  else if (read !== undefined) {
    if (read.min !== undefined) range.min = read.min;
    if (read.max !== undefined) range.max = read.max;
  }
}
