import { decimalLiteral, precisionOf } from '../../core/number.js';
import { zonesOf } from './critical.js';
import {
  AGE_CONVENTION,
  AGE_CONVENTION_VALUE,
  ageRange,
  type CriticalAs,
  DATA_TYPE,
  ext,
  FHIR_BASE,
  fhirId,
  ID_SYSTEM,
  INTERVAL_EXTENSIONS,
  LISTS,
  num,
  PANIC_INDEX,
  RESOURCE_EXTENSIONS,
  type Rec,
  readType,
  systemName,
  systemUri,
  UCUM,
} from './model.js';
import { choicesValueSet } from './value-set.js';

// A measure as an HL7 FHIR R4 ObservationDefinition (the table is in model.ts; from-observation-definition.ts
// reads one back).

export type { CriticalAs } from './model.js';

/** The measure as an ObservationDefinition. `isUcum` says whether a unit is valid UCUM. */
export function toObservationDefinition(
  m: Rec,
  isUcum: (unit: string) => boolean,
  criticalAs: CriticalAs = 'limits',
): Rec {
  const unit = typeof m.unit === 'string' ? m.unit : undefined;
  const siunit = typeof m.siunit === 'string' ? m.siunit : undefined;
  const concept = (u: string) => (isUcum(u) ? { coding: [{ system: UCUM, code: u }], text: u } : { text: u });
  // A decimal written at its precision (`8.0`), as FHIR R4 gives trailing zeros meaning: a raw JSON literal.
  const quantity = (value: number, precision: unknown, u = unit) => ({
    value: decimalLiteral(value, precision),
    ...(u !== undefined ? { unit: u } : {}),
    ...(u !== undefined && isUcum(u) ? { system: UCUM, code: u } : {}),
  });
  /**
   * A range's bounds as R4's Range: in the customary unit; a range with SI bounds alone in the SI unit, so a
   * reader without our extensions still has its limits (one in the customary unit too would read them so).
   */
  const rangeOf = (r: Rec) => {
    const [lo, hi, u] = num(r.min) || num(r.max) ? ['min', 'max', unit] : ['simin', 'simax', siunit];
    if (!(num(r[lo]) || num(r[hi])) || (lo === 'simin' && (siunit === undefined || siunit === unit))) return {};
    return {
      range: {
        ...(num(r[lo]) ? { low: quantity(r[lo], r[`${lo}Precision`], u) } : {}),
        ...(num(r[hi]) ? { high: quantity(r[hi], r[`${hi}Precision`], u) } : {}),
      },
    };
  };
  const extension: Rec[] = [];
  for (const [field, name, kind] of RESOURCE_EXTENSIONS) {
    const v = m[field];
    if (v === undefined) continue;
    for (const item of LISTS.has(field) ? (v as unknown[]) : [v]) extension.push({ url: ext(name), [kind]: item });
  }
  if (m.section !== undefined)
    extension.push({ url: ext('measure-section-json'), valueString: JSON.stringify(m.section) });
  const type = typeof m.type === 'string' ? m.type : undefined;
  if (type !== undefined && readType(DATA_TYPE[type], type === 'checklist') !== type)
    extension.push({ url: ext('measure-type'), valueCode: type });
  const sys = typeof m.hl7IdentifierSys === 'string' ? m.hl7IdentifierSys : undefined;
  if (sys !== undefined && systemName(systemUri(sys)) !== sys)
    extension.push({ url: ext('hl7-identifier-system'), valueString: sys });
  for (const [field, v] of Object.entries(m))
    if (Array.isArray(v) && v.length === 0) extension.push({ url: ext('measure-empty-list'), valueString: field });
  const bands = [m.referenceRanges, m.panicRanges].flatMap((l) => (Array.isArray(l) ? (l as Rec[]) : []));
  if (bands.some((r) => num(r.ageMin) || num(r.ageMax)))
    extension.push({ url: AGE_CONVENTION, valueCode: AGE_CONVENTION_VALUE });

  const coding = {
    ...(sys !== undefined ? { system: systemUri(sys) } : {}),
    ...(typeof m.hl7IdentifierCod === 'string' ? { code: m.hl7IdentifierCod } : {}),
  };
  const panics = (m.panicRanges as Rec[] | undefined) ?? [];
  const ranges: { r: Rec; category: string; condition?: string; panic?: number }[] = [
    ...((m.referenceRanges as Rec[] | undefined) ?? []).map((r) => ({ r, category: 'reference' })),
    // A panic range is FHIR's critical range exactly: results outside it are critical. As zones, the two sides
    // of one range carry its index, so that our import joins them again.
    ...(criticalAs === 'zones'
      ? panics.flatMap((p, n) => {
          const zones = zonesOf(p);
          const panic = zones.length > 1 ? n : undefined;
          return zones.map((z) => ({ r: z.r, category: 'critical', condition: z.condition, panic }));
        })
      : panics.map((r) => ({ r, category: 'critical' }))),
  ];
  const intervals = ranges.map(({ r, category, condition, panic }) => {
    const iext: Rec[] = INTERVAL_EXTENSIONS.filter(([f]) => r[f] !== undefined).map(([f, name, kind]) => ({
      url: ext(name),
      [kind]: kind === 'valueDecimal' && num(r[f]) ? decimalLiteral(r[f], r[`${f}Precision`]) : r[f],
    }));
    if (panic !== undefined) iext.push({ url: ext(PANIC_INDEX), valueInteger: panic });
    const age = ageRange(r.ageMin, r.ageMax);
    return {
      ...(typeof r.id === 'string' ? { id: r.id } : {}),
      ...(iext.length > 0 ? { extension: iext } : {}),
      category,
      ...rangeOf(r),
      ...(r.sex === 'male' || r.sex === 'female' ? { gender: r.sex } : {}),
      ...(condition ? { condition } : {}),
      ...(age ? { age } : {}),
    };
  });
  const details = {
    ...(unit !== undefined ? { customaryUnit: concept(unit) } : {}),
    ...(siunit !== undefined ? { unit: concept(siunit) } : {}),
    ...conversion(ranges.map((x) => x.r)),
  };
  const name = String(m.name);
  return {
    resourceType: 'ObservationDefinition',
    ...(typeof m.id === 'string' ? { id: fhirId(m.id) } : {}),
    ...(extension.length > 0 ? { extension } : {}),
    ...(typeof m.id === 'string' ? { identifier: [{ system: ID_SYSTEM, value: m.id }] } : {}),
    code: { ...(Object.keys(coding).length > 0 ? { coding: [coding] } : {}), text: name },
    ...(type !== undefined ? { permittedDataType: [DATA_TYPE[type]] } : {}),
    ...(type === 'checklist' ? { multipleResultsAllowed: true } : {}),
    // Choices as a ValueSet too, as FHIR catalogs are written, beside our extension (which keeps them exact).
    ...(Array.isArray(m.choices) && m.choices.length > 0
      ? choicesValueSet(m.choices as string[], `${FHIR_BASE}/CodeSystem/measure-choice`)
      : {}),
    preferredReportName: name,
    ...(Object.keys(details).length > 0 ? { quantitativeDetails: details } : {}),
    ...(intervals.length > 0 ? { qualifiedInterval: intervals } : {}),
  };
}

/**
 * conversionFactor when every bound pair gives one SI/conventional ratio; decimalPrecision when every bound
 * holds the same precision (its field, else its own decimals: 0.5 and 10.0 hold 1, 20 holds 0). A reader
 * without our extensions gives that count to each bound whose literal shows fewer decimals, so it must be
 * true of every bound: beside 10.0, a critical limit of 20 would come back as 20.0.
 */
function conversion(ranges: Rec[]): Rec {
  const ratios: number[] = [];
  const precisions = new Set<unknown>();
  // A reader derives every SI bound from the factor: a bound without its twin, or 0 beside another, has none.
  let one = true;
  for (const r of ranges) {
    for (const [c, s] of [
      ['min', 'simin'],
      ['max', 'simax'],
    ]) {
      if (num(r[c]) !== num(r[s]) || (r[c] === 0) !== (r[s] === 0)) one = false;
      else if (num(r[c]) && r[c] !== 0) ratios.push((r[s] as number) / (r[c] as number));
    }
    for (const b of ['min', 'max']) if (num(r[b])) precisions.add(precisionOf(r[b], r[`${b}Precision`]));
  }
  const out: Rec = {};
  const first = ratios[0];
  if (one && first !== undefined && first > 0 && ratios.every((x) => Math.abs(x - first) <= 1e-9 * Math.abs(first)))
    out.conversionFactor = Number(first.toPrecision(12));
  // R4 has no bound on it, but ours is 0 to 10 (schemas/common.ts): a bound with more decimals says them itself.
  const [only] = precisions;
  if (precisions.size === 1 && typeof only === 'number' && only <= 10) out.decimalPrecision = only;
  return out;
}
