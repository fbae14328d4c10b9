import { findAmbiguity, lineColumn } from '../../json/json-error.js';
import type { FieldError } from '../../schemas/common.js';
import { ageIn, PER_YEAR, toYears } from '../ages.js';
import type { Warning } from '../lint.js';
import type { RangeLike } from '../ranges.js';
import { type CriticalRead, interpretationOf, readCritical, zonesOf } from './critical.js';
import { choicesValueSet, codedChoices } from './value-set.js';

// A measure as an HL7 FHIR R4 ObservationDefinition, and back. What R4 has no element for goes into
// extensions under one base URL, so that export then import restores every field exactly. The table
// in docs/catalogs.md's FHIR section is this file in words.

type Rec = Record<string, unknown>;
type Json = Record<string, unknown>;

export const FHIR_BASE = 'https://fhir.clinadmin.dev';
export const ext = (name: string) => `${FHIR_BASE}/StructureDefinition/${name}`;
/** The identifier system of a measure's id on the server it came from. */
export const ID_SYSTEM = `${FHIR_BASE}/measure-id`;
export const UCUM = 'http://unitsofmeasure.org';
const LOINC = 'http://loinc.org';

/** HL7 v2 coding-system names and their FHIR system URIs; any other system is kept as given. */
const SYSTEMS: Record<string, string> = { LN: LOINC };
const systemUri = (sys: string) => SYSTEMS[sys] ?? sys;
const systemName = (uri: string) => Object.entries(SYSTEMS).find(([, u]) => u === uri)?.[0] ?? uri;

const DATA_TYPE: Record<string, string> = {
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
const INTERVAL_EXTENSIONS = [
  ['simin', 'range-simin', 'valueDecimal'],
  ['simax', 'range-simax', 'valueDecimal'],
  ['minPrecision', 'range-min-precision', 'valueInteger'],
  ['maxPrecision', 'range-max-precision', 'valueInteger'],
  ['siminPrecision', 'range-simin-precision', 'valueInteger'],
  ['simaxPrecision', 'range-simax-precision', 'valueInteger'],
] as const;

/** Measure fields held in extensions of the resource; lists repeat the extension, one per element. */
const RESOURCE_EXTENSIONS = [
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
const LISTS = new Set(['sets', 'choices']);

export const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;
/** A FHIR resource id allows letters, digits, - and . only; the exact id is kept in `identifier`. */
export const fhirId = (id: string) => id.replace(/[^A-Za-z0-9\-.]/g, '-').slice(0, 64);

const num = (v: unknown): v is number => typeof v === 'number';

/** How panic ranges are written: FHIR's critical limits, or one-sided zones with a condition (critical.ts). */
export type CriticalAs = 'limits' | 'zones';

/** The measure as an ObservationDefinition. `isUcum` says whether a unit is valid UCUM. */
export function toObservationDefinition(
  m: Rec,
  isUcum: (unit: string) => boolean,
  criticalAs: CriticalAs = 'limits',
): Json {
  const unit = typeof m.unit === 'string' ? m.unit : undefined;
  const siunit = typeof m.siunit === 'string' ? m.siunit : undefined;
  const concept = (u: string) => (isUcum(u) ? { coding: [{ system: UCUM, code: u }], text: u } : { text: u });
  const quantity = (value: number) => ({
    value,
    ...(unit !== undefined ? { unit } : {}),
    ...(unit !== undefined && isUcum(unit) ? { system: UCUM, code: unit } : {}),
  });
  const extension: Json[] = [];
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

  const coding = {
    ...(sys !== undefined ? { system: systemUri(sys) } : {}),
    ...(typeof m.hl7IdentifierCod === 'string' ? { code: m.hl7IdentifierCod } : {}),
  };
  const panics = (m.panicRanges as Rec[] | undefined) ?? [];
  const ranges: { r: Rec; category: string; condition?: string }[] = [
    ...((m.referenceRanges as Rec[] | undefined) ?? []).map((r) => ({ r, category: 'reference' })),
    // A panic range is FHIR's critical range exactly: results outside it are critical.
    ...(criticalAs === 'zones'
      ? panics.flatMap((p) => zonesOf(p).map((z) => ({ r: z.r, category: 'critical', condition: z.condition })))
      : panics.map((r) => ({ r, category: 'critical' }))),
  ];
  const intervals = ranges.map(({ r, category, condition }) => {
    const iext = INTERVAL_EXTENSIONS.filter(([f]) => r[f] !== undefined).map(([f, name, kind]) => ({
      url: ext(name),
      [kind]: r[f],
    }));
    // In the largest UCUM unit in which the age is whole: 72 h, 28 d, 18 a; read back to the same years.
    const years = (y: number) => {
      const { value, unit } = ageIn(y);
      return { value, unit, system: UCUM, code: unit };
    };
    return {
      ...(typeof r.id === 'string' ? { id: r.id } : {}),
      ...(iext.length > 0 ? { extension: iext } : {}),
      category,
      ...(num(r.min) || num(r.max)
        ? {
            range: {
              ...(num(r.min) ? { low: quantity(r.min) } : {}),
              ...(num(r.max) ? { high: quantity(r.max) } : {}),
            },
          }
        : {}),
      ...(r.sex === 'male' || r.sex === 'female' ? { gender: r.sex } : {}),
      ...(condition ? { condition } : {}),
      ...(num(r.ageMin) || num(r.ageMax)
        ? {
            age: {
              ...(num(r.ageMin) ? { low: years(r.ageMin) } : {}),
              ...(num(r.ageMax) ? { high: years(r.ageMax) } : {}),
            },
          }
        : {}),
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

/** conversionFactor when every bound pair gives one SI/conventional ratio; decimalPrecision when all agree. */
function conversion(ranges: Rec[]): Json {
  const ratios: number[] = [];
  const precisions = new Set<unknown>();
  for (const r of ranges) {
    for (const [c, s] of [
      ['min', 'simin'],
      ['max', 'simax'],
    ]) {
      if (num(r[c]) && num(r[s]) && r[c] !== 0) ratios.push((r[s] as number) / (r[c] as number));
    }
    for (const p of ['minPrecision', 'maxPrecision']) if (r[p] !== undefined) precisions.add(r[p]);
  }
  const out: Json = {};
  const first = ratios[0];
  if (first !== undefined && first > 0 && ratios.every((x) => Math.abs(x - first) <= 1e-9 * Math.abs(first)))
    out.conversionFactor = Number(first.toPrecision(12));
  if (precisions.size === 1) out.decimalPrecision = [...precisions][0];
  return out;
}

const readType = (dataType: string | undefined, multiple: boolean) =>
  dataType === 'CodeableConcept' ? (multiple ? 'checklist' : 'multiplechoice') : TYPE_OF[dataType ?? ''];

export interface Adapted {
  value: Rec;
  warnings: Warning[];
  errors: FieldError[];
  /** A measure field's FHIR path, for messages: `referenceRanges[0].min` → `qualifiedInterval[2].range.low.value`. */
  pathOf: (measurePath: string) => string;
  /** Not an ObservationDefinition: reported, and left out of the import. */
  skip?: boolean;
}

const HELD_ELSEWHERE = ['appliesTo', 'context', 'condition', 'gestationalAge'] as const;

/**
 * A measure from an ObservationDefinition, by the same table read backwards. A resource from another
 * system (no extensions of ours) imports with what it has; what our model cannot hold is a warning
 * naming the element, never dropped in silence. `test` fills in a missing test.
 */
export function fromObservationDefinition(od: Rec, test?: string): Adapted {
  const warnings: Warning[] = [];
  const errors: FieldError[] = [];
  const paths: Record<string, string> = {};
  const pathOf = (p: string) => {
    const key = Object.keys(paths)
      .filter((k) => p === k || p.startsWith(`${k}.`) || p.startsWith(`${k}[`))
      .sort((a, b) => b.length - a.length)[0];
    return key === undefined ? p : `${paths[key]}${p.slice(key.length)}`;
  };
  if (od.resourceType !== 'ObservationDefinition') {
    const what = typeof od.resourceType === 'string' ? `a ${od.resourceType}` : 'not a FHIR resource';
    // A ValueSet of a Bundle was read for the answers of the coded measures that reference it (records.ts).
    const message =
      od.resourceType === 'ValueSet'
        ? 'a ValueSet: read for the answers of the measures that reference it, not imported itself'
        : `${what}, not an ObservationDefinition: left out`;
    return {
      value: od,
      warnings: [{ field: 'resourceType', message }],
      errors,
      pathOf,
      skip: true,
    };
  }
  const exts = (Array.isArray(od.extension) ? od.extension : []) as Rec[];
  const extValues = (name: string) => exts.filter((e) => e.url === ext(name)).map((e) => extValue(e));
  const ours = exts.some((e) => typeof e.url === 'string' && e.url.startsWith(FHIR_BASE));
  const m: Rec = {};

  const identifier = ((od.identifier as Rec[] | undefined) ?? []).find((i) => i.system === ID_SYSTEM);
  if (typeof identifier?.value === 'string') m.id = identifier.value;
  for (const [field, name] of RESOURCE_EXTENSIONS) {
    const values = extValues(name);
    if (values.length === 0) continue;
    m[field] = LISTS.has(field) ? values : values[0];
    paths[field] = `extension(${ext(name)})`;
  }
  for (const field of extValues('measure-empty-list')) if (typeof field === 'string') m[field] = [];
  const section = extValues('measure-section-json')[0];
  if (typeof section === 'string') {
    const path = `extension(${ext('measure-section-json')})`;
    try {
      m.section = JSON.parse(section);
      // The same checks as any JSON input: no repeated key, no absurd nesting (JSON.parse allows both).
      const found = findAmbiguity(section, m.section);
      if (found) {
        const { line, column } = lineColumn(section, found.offset);
        errors.push({ path, message: `line ${line}, column ${column} of its JSON text: ${found.message}` });
        delete m.section;
      }
    } catch {
      errors.push({ path, message: 'is not JSON text' });
    }
  }
  if (m.test === undefined) {
    if (test !== undefined) m.test = test;
    else
      errors.push({
        path: 'test',
        message: `the resource names no test (extension ${ext('measure-test')}); give --test ID`,
      });
  }

  const code = (od.code ?? {}) as Rec;
  const coding = ((code.coding as Rec[] | undefined) ?? [])[0] ?? {};
  const name = od.preferredReportName ?? code.text ?? coding.display;
  if (name !== undefined) m.name = name;
  paths.name =
    od.preferredReportName !== undefined
      ? 'preferredReportName'
      : code.text !== undefined
        ? 'code.text'
        : 'code.coding[0].display';
  const sysExt = extValues('hl7-identifier-system')[0];
  if (sysExt !== undefined) m.hl7IdentifierSys = sysExt;
  else if (typeof coding.system === 'string') m.hl7IdentifierSys = systemName(coding.system);
  if (coding.code !== undefined) m.hl7IdentifierCod = coding.code;
  paths.hl7IdentifierCod = 'code.coding[0].code';
  paths.hl7IdentifierSys = 'code.coding[0].system';
  if (((code.coding as unknown[] | undefined)?.length ?? 0) > 1)
    warnings.push({ field: 'code.coding', message: 'only the first coding is kept (a measure holds one HL7 code)' });

  const dataTypes = (od.permittedDataType as unknown[] | undefined) ?? [];
  const type =
    extValues('measure-type')[0] ?? readType(dataTypes[0] as string | undefined, od.multipleResultsAllowed === true);
  if (type !== undefined) m.type = type;
  // Another system's coded result keeps its answers in a ValueSet, not in our extension.
  if ((type === 'multiplechoice' || type === 'checklist') && extValues('measure-choice').length === 0 && !ours) {
    const choices = codedChoices(od, warnings);
    if (choices) m.choices = choices;
    else m.type = 'text';
  }
  if (type === undefined && dataTypes.length > 0)
    warnings.push({ field: 'permittedDataType', message: `${String(dataTypes[0])} has no measure type; left unset` });
  if (dataTypes.length > 1)
    warnings.push({
      field: 'permittedDataType',
      message: `only ${String(dataTypes[0])} is kept of ${dataTypes.join(', ')}`,
    });
  paths.type = 'permittedDataType';

  const details = (od.quantitativeDetails ?? {}) as Rec;
  const unitOf = (c: unknown) => {
    const concept = (c ?? {}) as Rec;
    return concept.text ?? ((concept.coding as Rec[] | undefined) ?? [])[0]?.code;
  };
  const unit = unitOf(details.customaryUnit);
  const siunit = unitOf(details.unit);
  if (unit !== undefined) m.unit = unit;
  if (siunit !== undefined) m.siunit = siunit;
  paths.unit = 'quantitativeDetails.customaryUnit';
  paths.siunit = 'quantitativeDetails.unit';
  // Another system's factor gives SI bounds where a range has none (ours carry them in extensions).
  const factor = !ours && typeof details.conversionFactor === 'number' ? details.conversionFactor : undefined;

  const reference: Rec[] = [];
  const panic: Rec[] = [];
  const criticals: CriticalRead[] = [];
  ((od.qualifiedInterval as Rec[] | undefined) ?? []).forEach((q, i) => {
    const at = `qualifiedInterval[${i}]`;
    if (q.category !== 'reference' && q.category !== 'critical') {
      const what = q.category === undefined ? 'no category' : `category ${JSON.stringify(q.category)}`;
      warnings.push({ field: at, message: `${what}: only reference and critical intervals are held; left out` });
      return;
    }
    // A condition naming an interpretation (Normal, Low, Critical High…, as Medplum writes them) says what a
    // result in the interval means, not whom the range is for.
    const interpretation = interpretationOf(q.condition);
    if (q.category === 'reference' && (interpretation === 'low' || interpretation === 'high')) {
      warnings.push({
        field: `${at}.condition`,
        message: `a "${interpretation}" interval holds the ${interpretation} results, not a reference range; left out`,
      });
      return;
    }
    const held = HELD_ELSEWHERE.filter((k) => q[k] !== undefined && !(k === 'condition' && interpretation));
    if (held.length > 0) {
      warnings.push({
        field: `${at}.${held[0]}`,
        message: `a measure's range cannot be limited by ${held.join(', ')}; the interval is left out`,
      });
      return;
    }
    const range = (q.range ?? {}) as Rec;
    const units = new Set(
      [range.low, range.high]
        .map((x) => (x as Rec | undefined) ?? {})
        .map((x) => x.unit ?? x.code)
        .filter((u) => u !== undefined),
    );
    // Bounds in the SI unit are SI bounds; in no unit or the customary one, customary bounds.
    const only = units.size === 1 ? [...units][0] : undefined;
    const si = only !== undefined && m.siunit !== undefined && only === m.siunit && only !== m.unit;
    if (!si && m.unit === undefined && only !== undefined) m.unit = only;
    if (units.size > 1 || (only !== undefined && !si && only !== m.unit)) {
      warnings.push({
        field: `${at}.range`,
        message:
          `given in ${[...units].join(' and ')}, not the measure's unit ${String(m.unit)}; ` +
          'the interval is left out',
      });
      return;
    }
    const list = q.category === 'reference' ? reference : panic;
    const low = (range.low as Rec | undefined)?.value;
    const high = (range.high as Rec | undefined)?.value;
    const sex = q.gender === 'male' || q.gender === 'female' ? q.gender : undefined;
    // The same interval given again in SI units (as some systems send both) joins its customary twin.
    const twin = si
      ? list.find(
          (r) =>
            r.sex === sex &&
            r.simin === undefined &&
            r.simax === undefined &&
            (r.min !== undefined) === (low !== undefined) &&
            (r.max !== undefined) === (high !== undefined) &&
            sameAge(r, (q.age ?? {}) as Rec),
        )
      : undefined;
    if (twin) {
      if (low !== undefined) twin.simin = low;
      if (high !== undefined) twin.simax = high;
      return;
    }
    const field = `${q.category === 'reference' ? 'referenceRanges' : 'panicRanges'}[${list.length}]`;
    paths[field] = at;
    const r: Rec = {};
    if (q.category === 'reference' && typeof q.id === 'string') r.id = q.id;
    if (low !== undefined) r[si ? 'simin' : 'min'] = low;
    if (high !== undefined) r[si ? 'simax' : 'max'] = high;
    paths[`${field}.${si ? 'simin' : 'min'}`] = `${at}.range.low.value`;
    paths[`${field}.${si ? 'simax' : 'max'}`] = `${at}.range.high.value`;
    const iexts = (Array.isArray(q.extension) ? q.extension : []) as Rec[];
    for (const [f, name] of INTERVAL_EXTENSIONS) {
      const e = iexts.find((x) => x.url === ext(name));
      if (e) r[f] = extValue(e);
    }
    if (!ours && typeof details.decimalPrecision === 'number') {
      if (r.min !== undefined) r.minPrecision = details.decimalPrecision;
      if (r.max !== undefined) r.maxPrecision = details.decimalPrecision;
    }
    if (factor !== undefined && !si) {
      if (num(r.min)) r.simin = Number((r.min * factor).toPrecision(12));
      if (num(r.max)) r.simax = Number((r.max * factor).toPrecision(12));
    }
    if (sex !== undefined) r.sex = sex;
    else if (q.gender !== undefined)
      warnings.push({ field: `${at}.gender`, message: `${JSON.stringify(q.gender)} is held as all` });
    paths[`${field}.sex`] = `${at}.gender`;
    const age = (q.age ?? {}) as Rec;
    for (const [bound, f] of [
      ['low', 'ageMin'],
      ['high', 'ageMax'],
    ] as const) {
      const qty = age[bound] as Rec | undefined;
      const value = years(qty);
      if (value === undefined) continue;
      paths[`${field}.${f}`] = `${at}.age.${bound}.value`;
      if (Number.isNaN(value)) {
        const unitCode = String(qty?.code ?? qty?.unit);
        warnings.push({
          field: `${at}.age.${bound}`,
          message: `age in ${unitCode} is not one of UCUM's a, mo, wk, d, h; left out`,
        });
        continue;
      }
      r[f] = value;
    }
    list.push(r);
    if (q.category === 'critical') criticals.push({ r, at, interpretation });
  });
  // Our own export writes the definition's limits exactly (or zones that say so): only another system's
  // one-sided intervals are judged by where they lie.
  readCritical(criticals, reference as RangeLike[], warnings, !ours);
  if (reference.length > 0) m.referenceRanges = reference;
  if (panic.length > 0) m.panicRanges = panic;
  return { value: m, warnings, errors, pathOf };
}

/**
 * An age Quantity in years, the service's unit: undefined when it has no value, NaN when its unit is not one of
 * UCUM's a, mo, wk, d, h.
 */
function years(q: Rec | undefined): unknown {
  if (q?.value === undefined) return undefined;
  const unit = String(q.code ?? q.unit ?? 'a');
  return unit in PER_YEAR && unit !== 'y' && typeof q.value === 'number' ? toYears(q.value, unit) : Number.NaN;
}

/** Whether a range built so far has the ages of a FHIR interval's `age`, read as years. */
function sameAge(r: Rec, age: Rec): boolean {
  return r.ageMin === years(age.low as Rec | undefined) && r.ageMax === years(age.high as Rec | undefined);
}

function extValue(e: Rec): unknown {
  const key = Object.keys(e).find((k) => k.startsWith('value'));
  return key === undefined ? undefined : e[key];
}
