import { parseAge, parseAgeEnd } from './ages.js';
import { AGES, LIMIT_PAIRS, LISTS, NUMBERS, PRECISIONS, splitList } from './csv-cells.js';
import { nearest } from './nearest.js';
import { numberError, parseDecimal } from './number.js';
import { SEX_WORDS, sexOf } from './words.js';

// One cell of a catalog sheet read as its field holds it (csv-catalog.ts reads the rows); a cell that cannot
// be read is told to `fault` with the sentence that says why, and reads as undefined.

/** A cell's value as its field holds it; in a `;` sheet (`semicolon`) with a decimal comma. */
export function readCell(c: string, value: string, semicolon: boolean, fault: (message: string) => void): unknown {
  if (NUMBERS.has(c)) {
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
