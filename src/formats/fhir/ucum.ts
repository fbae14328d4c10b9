// Whether a unit is valid UCUM, by the NLM's own UCUM library (core/units.ts loads it once); only when a
// FHIR export needs it.

import { loadUcum } from '../../core/units.js';

let check: ((unit: string) => boolean) | undefined;

export async function ucumChecker(): Promise<(unit: string) => boolean> {
  if (check) return check;
  const ucum = await loadUcum();
  check = (unit) => unit.trim() !== '' && ucum.invalid(unit) === undefined;
  return check;
}
