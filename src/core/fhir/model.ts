import { type AgeUnit, edgeOf, exactYears, PER_YEAR, smaller, toYears, UCUM_CODE, unitOf } from '../ages.js';

// The table both directions of the FHIR mapping read (observation-definition.ts writes a measure as an HL7
// FHIR R4 ObservationDefinition, from-observation-definition.ts reads one back). What R4 has no element for
// goes into extensions under one base URL, so that export then import restores every field exactly. The
// table in docs/catalogs.md's FHIR section is these files in words.

import type { Rec } from '../../json/record.js';

export type { Rec };

export const FHIR_BASE = 'https://fhir.clinadmin.dev';
export const ext = (name: string) => `${FHIR_BASE}/StructureDefinition/${name}`;
/** The identifier system of a measure's id on the server it came from. */
export const ID_SYSTEM = `${FHIR_BASE}/measure-id`;
export const UCUM = 'http://unitsofmeasure.org';
const LOINC = 'http://loinc.org';

/** HL7 v2 coding-system names and their FHIR system URIs; any other system is kept as given. */
export const SYSTEMS: Record<string, string> = { LN: LOINC };
export const systemUri = (sys: string) => SYSTEMS[sys] ?? sys;
export const systemName = (uri: string) => Object.entries(SYSTEMS).find(([, u]) => u === uri)?.[0] ?? uri;

export const DATA_TYPE: Record<string, string> = {
  numeric: 'Quantity',
  'numeric-breakdown': 'Quantity',
  posneg: 'boolean',
  text: 'string',
  html: 'string',
  multiplechoice: 'CodeableConcept',
  checklist: 'CodeableConcept',
};
/** The type a permittedDataType reads back as, when no extension says more. */
const TYPE_OF: Record<string, string> = { Quantity: 'numeric', boolean: 'posneg', string: 'text' };

/** Range fields held in extensions of a qualifiedInterval (R4 has only the customary-unit bounds). */
export const INTERVAL_EXTENSIONS = [
  ['simin', 'range-simin', 'valueDecimal'],
  ['simax', 'range-simax', 'valueDecimal'],
  ['minPrecision', 'range-min-precision', 'valueInteger'],
  ['maxPrecision', 'range-max-precision', 'valueInteger'],
  ['siminPrecision', 'range-simin-precision', 'valueInteger'],
  ['simaxPrecision', 'range-simax-precision', 'valueInteger'],
] as const;

/** Measure fields held in extensions of the resource; lists repeat the extension, one per element. */
export const RESOURCE_EXTENSIONS = [
  ['test', 'measure-test', 'valueString'],
  ['account', 'measure-account', 'valueString'],
  ['facility', 'measure-facility', 'valueString'],
  ['set', 'measure-set', 'valueString'],
  ['sets', 'measure-sets', 'valueString'],
  ['description', 'measure-description', 'valueString'],
  ['choices', 'measure-choice', 'valueString'],
  ['numericBreakdownMin', 'measure-breakdown-min', 'valueDecimal'],
  ['numericBreakdownMax', 'measure-breakdown-max', 'valueDecimal'],
] as const;
export const LISTS = new Set(['sets', 'choices']);

/** A FHIR resource id allows letters, digits, - and . only; the exact id is kept in `identifier`. */
export const fhirId = (id: string) => id.replace(/[^A-Za-z0-9\-.]/g, '-').slice(0, 64);

export const num = (v: unknown): v is number => typeof v === 'number';

/** How panic ranges are written: FHIR's critical limits, or one-sided zones with a condition (critical.ts). */
export type CriticalAs = 'limits' | 'zones';

export const readType = (dataType: string | undefined, multiple: boolean) =>
  dataType === 'CodeableConcept' ? (multiple ? 'checklist' : 'multiplechoice') : TYPE_OF[dataType ?? ''];

export function extValue(e: Rec): unknown {
  const key = Object.keys(e).find((k) => k.startsWith('value'));
  return key === undefined ? undefined : e[key];
}

/** Hours in each unit of age: a conversion between two of them is exact in decimals (1 mo = 30.4375 d). */
const HOURS = { h: 1, d: 24, wk: 168, mo: 730.5, y: 8766 } as const;

/** The value of an age Quantity in `unit` for a stored edge: its whole count converted, else exact years in it. */
function valueIn(years: number, unit: AgeUnit): number {
  const e = edgeOf(years);
  return e.whole ? Number(((e.count * HOURS[e.unit]) / HOURS[unit]).toPrecision(15)) : years * PER_YEAR[unit];
}

/**
 * A band's ages as one FHIR Range: both ends in the smaller unit of the two, as R4's Range requires ("The
 * unit and code/system elements of the low or high elements SHALL match"): `29 d–11 mo` is 29–334.8125 d.
 * An end that would read back as another age (72 h for 3 d) also carries the years it stands for.
 */
export function ageRange(ageMin: unknown, ageMax: unknown): Rec | undefined {
  const ends = [num(ageMin) ? ageMin : undefined, num(ageMax) ? ageMax : undefined];
  const edges = ends.map((y) => (y === undefined ? undefined : edgeOf(y)));
  const units = edges.filter((e) => e !== undefined && e.count !== 0).map((e) => e!.unit);
  const unit = units.length === 0 ? 'y' : units.reduce(smaller);
  const quantity = (years: number) => {
    const value = valueIn(years, unit);
    const code = UCUM_CODE[unit];
    const q: Rec = { value, unit: code, system: UCUM, code };
    if (ageOf(q) !== years) q.extension = [{ url: ext('age-years'), valueDecimal: years }];
    return q;
  };
  const [low, high] = ends.map((y) => (y === undefined ? undefined : quantity(y)));
  return low || high ? { ...(low ? { low } : {}), ...(high ? { high } : {}) } : undefined;
}

/** The objects of a list a file gives (an element's extensions, identifiers): none when it gives no list. */
export const objectsIn = (v: unknown): Rec[] =>
  Array.isArray(v) ? v.filter((e): e is Rec => e !== null && typeof e === 'object' && !Array.isArray(e)) : [];

/** Whether a Quantity's value is an age a band can hold: a finite number, 0 or more. */
export const isAgeValue = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/**
 * An age Quantity as the years the service stores: a whole count in its unit as that unit's edge (72 h stays
 * hours), another value as exact years; the years our export noted win where they are that value's own (an
 * extension may not change what its element means, R4 §2.5.0.1, so a crafted one that says other is ignored).
 * `mixed` (the Range's two ends in two units, as R4 does not allow and earlier clinadmin wrote: 0 a–4 wk)
 * reads each as exact years. Undefined without a value, NaN when its unit is not one of UCUM's a, mo, wk, d, h
 * or its value no finite number of 0 or more.
 */
export function ageOf(q: Rec | undefined, mixed = false): number | undefined {
  if (q?.value === undefined) return undefined;
  const code = String(q.code ?? q.unit ?? 'a');
  const unit = code === 'y' ? undefined : unitOf(code);
  if (unit === undefined || !isAgeValue(q.value)) return Number.NaN;
  const noted = objectsIn(q.extension).find((e) => e.url === ext('age-years'))?.valueDecimal;
  // The years noted are the value's own when they give that value back as ageRange writes it.
  if (isAgeValue(noted) && Math.abs(valueIn(noted, unit) - q.value) <= q.value * 1e-12) return noted;
  return Number.isInteger(q.value) && !mixed ? toYears(q.value, unit) : exactYears(q.value, unit);
}

/** Whether an age Range's two ends are in two units. */
export const mixedUnits = (age: Rec): boolean => {
  const [lo, hi] = [age.low as Rec | undefined, age.high as Rec | undefined];
  return lo !== undefined && hi !== undefined && (lo.code ?? lo.unit) !== (hi.code ?? hi.unit);
};
