import { type AgeUnit, canon, edgeOf, PER_YEAR } from '../ages.js';
import { type Decimal, decimalsOf, plainDecimal } from '../number.js';

// HL7 v2 writes an RFR's age range in years, or fractions of a year (v2.5.1 8.8.4.6), with as many digits as
// the sender chose: a day is 0.00274 in one file and 0.0027378507871 in another. An age read from such a
// number is the whole count of hours, days, months or years the written digits round from (the largest such
// unit), when one lies within half a unit of the last digit written and within 1% of the number; otherwise the
// number as written. So `0.00274` is 1 d and `0.0833` is 1 mo, but `0.1` stays 0.1 y.

const UNITS: AgeUnit[] = ['y', 'mo', 'd', 'h'];

export function yearsOf(d: Decimal): number {
  const { value } = d;
  if (value === 0) return 0;
  const slack = 0.5 * 10 ** -d.decimals;
  for (const unit of UNITS) {
    const count = Math.round(value * PER_YEAR[unit]);
    if (count === 0) continue;
    const years = unit === 'y' ? count : count / PER_YEAR[unit];
    const off = Math.abs(years - value);
    if (off <= slack && off <= 0.01 * Math.abs(value)) return years;
  }
  return value;
}

/**
 * Exact years in plain digits that yearsOf reads back to the same age: a whole count of a unit as its shortest
 * text (`0.019164955509924708`, 7 d), another age padded with zeros to 17 significant digits
 * (`0.019200000000000000`), so that no whole count lies within half its last digit and it stays as written.
 */
export function yearsText(years: number): string {
  const age = canon(years);
  const text = plainDecimal(age);
  if (edgeOf(age) !== undefined) return text;
  const significant = text.replace(/^[-0.]+/, '').replace('.', '').length;
  return plainDecimal(age, decimalsOf(age) + Math.max(0, 17 - significant));
}
