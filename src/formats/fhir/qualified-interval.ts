import { writtenPrecision } from '../../core/number.js';
import type { FieldError } from '../../schemas/common.js';
import { writtenDecimals } from '../json/decimals.js';
import { findAmbiguity, lineColumn } from '../json/json-error.js';
import { ageBand, ext, type Rec } from './model.js';

// What from-observation-definition.ts reads beside an interval's range (written precision, ages) and the
// JSON text of our section extension.

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

/** Our `measure-section-json` extension's JSON text as `m.section`, checked as any JSON input, or its error. */
export function readSection(m: Rec, text: string, errors: FieldError[]): void {
  const path = `extension(${ext('measure-section-json')})`;
  try {
    m.section = JSON.parse(text);
    // The same checks as any JSON input: no repeated key, no absurd nesting (JSON.parse allows both).
    const found = findAmbiguity(text, m.section);
    if (found) {
      const { line, column } = lineColumn(text, found.offset);
      errors.push({ path, message: `line ${line}, column ${column} of its JSON text: ${found.message}` });
      delete m.section;
    }
  } catch {
    errors.push({ path, message: 'is not JSON text' });
  }
}
