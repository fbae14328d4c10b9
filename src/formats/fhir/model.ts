import { type AgeUnit, canon, edgeOf, exactYears, UCUM_CODE, unitOf } from '../../core/ages.js';
import { fromLegacy, legacyYears } from '../../schemas/ages-legacy.js';

// The table both directions of the FHIR mapping read (observation-definition.ts writes a measure as an HL7
// FHIR R4 ObservationDefinition, from-observation-definition.ts reads one back). What R4 has no element for
// goes into extensions under one base URL, so that export then import restores every field exactly. The
// table in docs/catalogs.md's FHIR section is these files in words.

import type { Rec } from '../json/record.js';

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

/**
 * On each side of a panic range written as two zones of critical values (`--critical-as zones`): the range's
 * index among the measure's panic ranges, by which our import joins the sides into the range again.
 */
export const PANIC_INDEX = 'panic-range-index';

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
const SMALLEST_FIRST: AgeUnit[] = ['h', 'd', 'wk', 'mo', 'y'];
const smaller = (a: AgeUnit, b: AgeUnit): AgeUnit => (SMALLEST_FIRST.indexOf(a) <= SMALLEST_FIRST.indexOf(b) ? a : b);

/**
 * The resource extension that says its age Ranges are read as R4 reads them (low the first age in the
 * band, high the first age past it). A file that has our other extensions and not this one was written
 * before, when high was the last completed unit and an `age-years` extension kept the unit (schemas/ages-legacy.ts).
 */
export const AGE_CONVENTION = ext('age-convention');
export const AGE_CONVENTION_VALUE = 'exact-range';

/**
 * A band's ages as one FHIR Range, [low, high) in exact ages (ages.ts): both ends in one unit, as R4's Range
 * requires ("The unit and code/system elements of the low or high elements SHALL match"), the smaller of the
 * largest units each end is whole in, so the values are exact decimals: `29 d–11 mo` is 29–365.25 d. An end
 * whole in no unit puts both in years. Nothing in an extension: the numbers alone say the band.
 */
export function ageRange(ageMin: unknown, ageMax: unknown): Rec | undefined {
  const ends = [num(ageMin) ? canon(ageMin) : undefined, num(ageMax) ? canon(ageMax) : undefined];
  const edges = ends.filter((y) => y !== undefined && y !== 0).map((y) => edgeOf(y!));
  const unit = edges.some((e) => e === undefined) ? 'y' : edges.map((e) => e!.unit).reduce(smaller, 'y');
  const quantity = (years: number) => {
    const e = edgeOf(years);
    const value = e ? Number(((e.count * HOURS[e.unit]) / HOURS[unit]).toPrecision(15)) : canon(years);
    const code = UCUM_CODE[unit];
    return { value, unit: code, system: UCUM, code };
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
 * An age Quantity as exact years: its value in its unit (R4: a Range's ends are exact). `legacy` (our own
 * export from before AGE_CONVENTION) reads it as that export wrote it, in the old stored form, the years
 * noted in its `age-years` extension first where they are that value's own (an extension may not change
 * what its element means, R4 §2.5.0.1, so a crafted one that says other is ignored); `mixed` (two units in
 * one Range, as such exports did: 0 a–4 wk) reads each as exact years. Undefined without a value, NaN when
 * its unit is no age's (ageUnit) or its value no finite number of 0 or more.
 */
function ageOf(q: Rec | undefined, legacy = false, mixed = false): number | undefined {
  if (q?.value === undefined) return undefined;
  const read = ageUnit(q);
  if (read === undefined || !isAgeValue(q.value)) return Number.NaN;
  const { unit, per } = read;
  if (!legacy || per !== 1) return canon(exactYears(q.value / per, unit));
  const noted = objectsIn(q.extension).find((e) => e.url === ext('age-years'))?.valueDecimal;
  const years = exactYears(q.value, unit);
  if (isAgeValue(noted) && Math.abs(noted - years) <= years * 1e-9) return noted;
  return Number.isInteger(q.value) && !mixed ? legacyYears(q.value, unit) : years;
}

/** The words people write for an age's unit (Medplum's `years`), in any case, beside UCUM's own codes. */
const AGE_WORDS: Record<string, AgeUnit> = Object.fromEntries(
  (
    [
      ['y', ['year', 'years', 'yr', 'yrs']],
      ['mo', ['month', 'months']],
      ['wk', ['week', 'weeks']],
      ['d', ['day', 'days']],
      ['h', ['hour', 'hours', 'hr', 'hrs']],
    ] as const
  ).flatMap(([unit, words]) => words.map((w) => [w, unit])),
);

/**
 * An age Quantity's unit as the lab notation reads it, by its UCUM code (`a`, `mo`, `wk`, `d`, `h`, `min`:
 * case matters in UCUM) else its words; `per` divides the value into that unit (a minute is 1/60 h).
 * Undefined for a unit that is not an age's. No unit at all is years, as before.
 */
function ageUnit(q: Rec): { unit: AgeUnit; per: number } | undefined {
  const code = String(q.code ?? q.unit ?? 'a').trim();
  if (code === 'min' || code.toLowerCase() === 'minute' || code.toLowerCase() === 'minutes')
    return { unit: 'h', per: 60 };
  const unit = (code === 'y' ? undefined : unitOf(code)) ?? AGE_WORDS[code.toLowerCase()];
  return unit === undefined ? undefined : { unit, per: 1 };
}

/** A FHIR age Range as a band's [ageMin, ageMax) in exact years (see ageOf for `legacy`). */
export function ageBand(age: Rec, legacy: boolean): [number | undefined, number | undefined] {
  const mixed = mixedUnits(age);
  const [lo, hi] = [
    ageOf(age.low as Rec | undefined, legacy, mixed),
    ageOf(age.high as Rec | undefined, legacy, mixed),
  ];
  if (!legacy || Number.isNaN(lo) || Number.isNaN(hi)) return [lo, hi];
  return fromLegacy(lo, hi);
}

/** Whether an age Range's two ends are in two units. */
const mixedUnits = (age: Rec): boolean => {
  const [lo, hi] = [age.low as Rec | undefined, age.high as Rec | undefined];
  return lo !== undefined && hi !== undefined && (lo.code ?? lo.unit) !== (hi.code ?? hi.unit);
};
