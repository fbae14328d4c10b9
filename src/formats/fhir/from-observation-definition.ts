import type { Warning } from '../../core/lint.js';
import { quoted } from '../../core/problems.js';
import type { RangeLike } from '../../core/ranges.js';
import { type Unheld, unheldRange } from '../../core/unheld.js';
import { type FieldError, precision } from '../../schemas/common.js';
import type { Adapted } from '../adapted.js';
import { sourcePath } from '../source-path.js';
import { type CriticalRead, interpretationOf, joinedPaths, joinSide, readCritical } from './critical.js';
import { ageWords, contextIsNormal, intervalLimits } from './interval-limits.js';
import {
  AGE_CONVENTION,
  ageBand,
  ext,
  extValue,
  FHIR_BASE,
  ID_SYSTEM,
  INTERVAL_EXTENSIONS,
  LISTS,
  num,
  objectsIn,
  PANIC_INDEX,
  RESOURCE_EXTENSIONS,
  type Rec,
  readType,
  systemName,
} from './model.js';
import { keepWritten, readSection, sameAge, shown } from './qualified-interval.js';
import { asR4, unreadElements } from './unread.js';
import { codedChoices, type ValueSetAnswers } from './value-set.js';

// A measure from an HL7 FHIR R4 ObservationDefinition: model.ts's table read backwards.

/**
 * A measure from an ObservationDefinition, by the same table read backwards. A resource from another
 * system (no extensions of ours) imports with what it has; what our model cannot hold is a warning
 * naming the element, never dropped in silence. `test` fills in a missing test; `valueSets` holds the answers
 * of the ValueSets read so far, so a shared one is read once. An interval for people a range cannot name (a
 * context, an unread age or sex…) is an error, or left out with a warning under `unheld.leaveOut`.
 */
export function fromObservationDefinition(
  given: Rec,
  test?: string,
  valueSets?: ValueSetAnswers,
  unheld: Unheld = {},
): Adapted {
  const warnings: Warning[] = [];
  const errors: FieldError[] = [];
  const paths: Record<string, string> = {};
  const pathOf = (p: string) => sourcePath(paths, p, true);
  if (given.resourceType !== 'ObservationDefinition') {
    const od = given;
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
  // R5 in R4's words (its intervals keep their own name in messages); every element not read is named.
  const { od, intervals } = asR4(given, warnings);
  warnings.push(...unreadElements(given, intervals));
  const exts = objectsIn(od.extension);
  const extValues = (name: string) => exts.filter((e) => e.url === ext(name)).map((e) => extValue(e));
  const ours = exts.some((e) => typeof e.url === 'string' && e.url.startsWith(FHIR_BASE));
  // Our export from before the age convention (model.ts AGE_CONVENTION) wrote ages its own way.
  const legacy = ours && !exts.some((e) => e.url === AGE_CONVENTION);
  const m: Rec = {};

  const identifier = objectsIn(od.identifier).find((i) => i.system === ID_SYSTEM);
  if (typeof identifier?.value === 'string') m.id = identifier.value;
  for (const [field, name] of RESOURCE_EXTENSIONS) {
    const values = extValues(name);
    if (values.length === 0) continue;
    m[field] = LISTS.has(field) ? values : values[0];
    paths[field] = `extension(${ext(name)})`;
  }
  for (const field of extValues('measure-empty-list')) if (typeof field === 'string') m[field] = [];
  const section = extValues('measure-section-json')[0];
  if (typeof section === 'string') readSection(m, section, errors);
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
    const choices = codedChoices(od, warnings, valueSets);
    if (choices) m.choices = choices;
    else m.type = 'text';
  } else if (od.validCodedValueSet !== undefined && !ours && extValues('measure-choice').length === 0) {
    // A measure of another type may hold choices too: they ride in the same ValueSet.
    const choices = codedChoices(od, [], valueSets);
    if (choices) m.choices = choices;
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
  // Another system's one unit in `unit` (R4's "SI unit", as Medplum writes its only one) is its results' unit.
  // Our export without its extensions still names our measure id, and writes `unit` only for an SI unit.
  const alone = !ours && identifier === undefined && details.customaryUnit === undefined;
  const unit = unitOf(alone ? details.unit : details.customaryUnit);
  const siunit = alone ? undefined : unitOf(details.unit);
  if (unit !== undefined) m.unit = unit;
  if (siunit !== undefined) m.siunit = siunit;
  paths.unit = alone ? 'quantitativeDetails.unit' : 'quantitativeDetails.customaryUnit';
  paths.siunit = 'quantitativeDetails.unit';
  // Another system's factor gives SI bounds where a range has none (ours carry them in extensions).
  const factor = !ours && typeof details.conversionFactor === 'number' ? details.conversionFactor : undefined;
  // Another system's precision of every bound (R4: an integer), held as any precision, or its one error.
  let decimalPrecision = ours ? undefined : details.decimalPrecision;
  const held = decimalPrecision === undefined ? undefined : precision().safeParse(decimalPrecision);
  if (held?.success === false) {
    const message = `${held.error.issues[0].message} (got ${shown(decimalPrecision)})`;
    errors.push({ path: 'quantitativeDetails.decimalPrecision', message });
    decimalPrecision = undefined;
  }

  const reference: Rec[] = [];
  const panic: Rec[] = [];
  const criticals: CriticalRead[] = [];
  const sides = new Map<number, Rec>();
  ((od.qualifiedInterval as Rec[] | undefined) ?? []).forEach((q, i) => {
    const at = `${intervals}[${i}]`;
    // A condition naming an interpretation (Normal, Low, Critical High…, as Medplum writes them) says what a
    // result in the interval means, not whom the range is for.
    const interpretation = interpretationOf(q.condition);
    // With no category, a context or condition saying normal makes a reference range; critical low or high, a
    // critical one; low or high, the abnormal results of a reference range.
    const normal = interpretation === 'normal' || contextIsNormal(q.context);
    const abnormal = interpretation === 'low' || interpretation === 'high';
    const category =
      q.category ??
      (normal || abnormal ? 'reference' : interpretation?.startsWith('critical') ? 'critical' : undefined);
    if (category !== 'reference' && category !== 'critical') {
      const what = category === undefined ? 'no category' : `category ${JSON.stringify(category)}`;
      warnings.push({ field: at, message: `${what}: only reference and critical intervals are held; range left out` });
      return;
    }
    if (category === 'reference' && abnormal) {
      warnings.push({
        field: `${at}.condition`,
        message: `a "${interpretation}" interval holds the ${interpretation} results, not a reference range: left out`,
      });
      return;
    }
    // Held without its limit, the range would hold for more people than the file says: never held.
    const limits = intervalLimits(q, at, interpretation);
    const sex = q.gender === 'male' || q.gender === 'female' ? q.gender : undefined;
    if (q.gender !== undefined && sex === undefined)
      limits.push({
        place: `${at}.gender`,
        what: `gender ${typeof q.gender === 'string' ? quoted(q.gender) : shown(q.gender)}, not male or female`,
      });
    const age = (q.age ?? {}) as Rec;
    const band = ageBand(age, legacy);
    for (const [i, bound] of [
      [0, 'low'],
      [1, 'high'],
    ] as const)
      if (Number.isNaN(band[i])) limits.push({ place: `${at}.age.${bound}`, what: ageWords(age[bound]) });
    for (const { place, what } of limits) unheldRange(unheld, place, what, { warnings, errors });
    if (limits.length > 0) return;
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
        message: `given in ${[...units].join(' and ')}, not the measure's unit ${String(m.unit)}; range left out`,
      });
      return;
    }
    const list = category === 'reference' ? reference : panic;
    const low = (range.low as Rec | undefined)?.value;
    const high = (range.high as Rec | undefined)?.value;
    // The same interval again in SI units (as some systems send both) joins its customary twin; not in ours.
    const twin =
      si && !ours
        ? list.find(
            (r) =>
              r.sex === sex &&
              r.simin === undefined &&
              r.simax === undefined &&
              (r.min !== undefined) === (low !== undefined) &&
              (r.max !== undefined) === (high !== undefined) &&
              sameAge(r, (q.age ?? {}) as Rec, legacy),
          )
        : undefined;
    if (twin) {
      if (low !== undefined) twin.simin = low;
      if (high !== undefined) twin.simax = high;
      keepWritten(twin, range, true);
      return;
    }
    const field = `${category === 'reference' ? 'referenceRanges' : 'panicRanges'}[${list.length}]`;
    paths[field] = at;
    const r: Rec = {};
    if (category === 'reference' && typeof q.id === 'string') r.id = q.id;
    if (low !== undefined) r[si ? 'simin' : 'min'] = low;
    if (high !== undefined) r[si ? 'simax' : 'max'] = high;
    paths[`${field}.${si ? 'simin' : 'min'}`] = `${at}.range.low.value`;
    paths[`${field}.${si ? 'simax' : 'max'}`] = `${at}.range.high.value`;
    const iexts = objectsIn(q.extension);
    for (const [f, name] of INTERVAL_EXTENSIONS) {
      const e = iexts.find((x) => x.url === ext(name));
      if (e) r[f] = extValue(e);
    }
    // Our range of SI bounds alone, its extensions dropped, where the SI unit is no unit of its own: no limit.
    if (['min', 'max', 'simin', 'simax'].every((b) => r[b] === undefined)) {
      warnings.push({ field: at, message: 'an interval with no limit in its range: left out' });
      return;
    }
    keepWritten(r, range, si, si ? undefined : decimalPrecision);
    if (factor !== undefined && !si) {
      // Not rounded to the factor's 12 digits: the bounds must give the same factor back on export.
      if (num(r.min)) r.simin = Number((r.min * factor).toPrecision(15));
      if (num(r.max)) r.simax = Number((r.max * factor).toPrecision(15));
    }
    if (sex !== undefined) r.sex = sex;
    paths[`${field}.sex`] = `${at}.gender`;
    for (const [i, bound, f] of [
      [0, 'low', 'ageMin'],
      [1, 'high', 'ageMax'],
    ] as const) {
      if (band[i] === undefined) continue;
      paths[`${field}.${f}`] = `${at}.age.${bound}.value`;
      r[f] = band[i];
    }
    // The two sides of one of our own panic ranges, written as zones, are read back as that range.
    const side = ours && category === 'critical' ? iexts.find((e) => e.url === ext(PANIC_INDEX)) : undefined;
    const joined = Number.isInteger(side?.valueInteger)
      ? joinSide(sides, side!.valueInteger as number, r, interpretation, list)
      : undefined;
    if (joined) joinedPaths(paths, field, `panicRanges[${list.indexOf(joined)}]`, at, interpretation);
    else list.push(r);
    if (!joined && category === 'critical') criticals.push({ r, at, interpretation });
  });
  // Our own export writes the definition's limits exactly (or zones that say so): only another system's
  // one-sided intervals are judged by where they lie.
  readCritical(criticals, reference as RangeLike[], warnings, !ours);
  if (reference.length > 0) m.referenceRanges = reference;
  if (panic.length > 0) m.panicRanges = panic;
  return { value: m, warnings, errors, pathOf, ...(ours ? {} : { carrier: 'fhir' as const }) };
}
