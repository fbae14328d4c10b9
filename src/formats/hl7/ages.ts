import { type AgeUnit, canon, edgeOf, PER_YEAR } from '../../core/ages.js';
import { type Decimal, decimalsOf, plainDecimal } from '../../core/number.js';

// HL7 v2 writes an RFR's age range in years, or fractions of a year (v2.5.1 8.8.4.6), with as many digits as
// the sender chose: a day is 0.00274 in one file and 0.0027378507871 in another. An age read from such a
// number is the whole count of hours, days, months or years the written digits round from (the largest such
// unit), when one lies within half a unit of the last digit written and within 1% of the number; otherwise the
// number as written. So `0.00274` is 1 d and `0.0833` is 1 mo, but `0.1` stays 0.1 y. A whole count of the
// spec's own rounder fractions (SPEC_FRACTIONS) is that count too: `0.0027300` is 1 d, `0.0830` 1 mo.

const UNITS: AgeUnit[] = ['mo', 'd', 'h'];

/**
 * The fractions of a year HL7 itself gives for RFR-3 (1 d = 0.0027300, 1 wk = 0.01920, 1 mo = 0.0830): rounder
 * than the exact ones, so a file that copies them means that many days, weeks or months.
 */
const SPEC_FRACTIONS: [AgeUnit, number][] = [
  ['mo', 0.083],
  ['wk', 0.0192],
  ['d', 0.00273],
];
/** The most decimals the spec's table writes a fraction with (0.0027300). */
const SPEC_DECIMALS = 7;

export function yearsOf(d: Decimal): number {
  const { value } = d;
  if (value === 0) return 0;
  const slack = 0.5 * 10 ** -d.decimals;
  const near = (years: number) => {
    const off = Math.abs(years - value);
    return off <= slack && off <= 0.01 * Math.abs(value);
  };
  if (near(Math.round(value))) return Math.round(value);
  // Below a year, the spec's own fractions before the exact ones: 0.0830 is 1 mo, not the 728 h it is nearest.
  // The table writes them to at most 7 decimals; a number written past that (our export pads an age no unit
  // rounds to, 0.019200000000000000) says it is exact, not a copy of the table.
  if (value < 1 && d.decimals <= SPEC_DECIMALS)
    for (const [unit, fraction] of SPEC_FRACTIONS) {
      const count = Math.round(value / fraction);
      if (count > 0 && near(count * fraction)) return count / PER_YEAR[unit];
    }
  for (const unit of UNITS) {
    const count = Math.round(value * PER_YEAR[unit]);
    if (count > 0 && near(count / PER_YEAR[unit])) return count / PER_YEAR[unit];
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
