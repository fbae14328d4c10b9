import { writtenDecimals } from '../../json/decimals.js';
import { writtenPrecision } from '../number.js';
import { ageBand, type Rec } from './model.js';

// What from-observation-definition.ts reads of one qualifiedInterval beside its range: written precision, ages.

/** A value as a file wrote it, cut: 1e400 reads as Infinity. */
export const shown = (v: unknown) => (typeof v === 'number' ? String(v) : String(JSON.stringify(v))).slice(0, 40);

/** Whether a range built so far has the ages of a FHIR interval's `age`. */
export function sameAge(r: Rec, age: Rec, legacy: boolean): boolean {
  const [lo, hi] = ageBand(age, legacy);
  return r.ageMin === lo && r.ageMax === hi;
}

/**
 * The precision of each bound a Range's decimal was written with (`"value": 8.0` is 8 at precision 1, as FHIR
 * R4 gives a decimal's trailing zeros meaning), else the measure's `decimalPrecision` (another system's JSON
 * may write 5.0 as 5), where no extension of ours has set it. Set only where it says more than the value's own
 * decimals, as every reader of numbers does: 3.5 at precision 1 is stored as 3.5, 5 at precision 1 as 5.0.
 */
export function keepWritten(r: Rec, range: Rec, si: boolean, decimalPrecision?: unknown): void {
  for (const [end, bound] of [
    ['low', si ? 'simin' : 'min'],
    ['high', si ? 'simax' : 'max'],
  ] as const) {
    const value = r[bound];
    const written = writtenDecimals(range[end], 'value') ?? decimalPrecision;
    if (typeof value !== 'number' || typeof written !== 'number' || r[`${bound}Precision`] !== undefined) continue;
    const precision = writtenPrecision({ value, decimals: written });
    if (precision !== undefined) r[`${bound}Precision`] = precision;
  }
}
