import type { Warning } from '../../core/lint.js';
import type { Rec } from './model.js';

// What of an ObservationDefinition the reader takes, so that every other element is named, never passed over
// in silence; and FHIR R5's shape (qualifiedValue, rangeCategory, permittedUnit) in R4's words, the version
// told from the content, since a resource does not say which release it was written in.

/** The resource's elements read (or that say nothing a measure holds: its id, meta and narrative). */
const RESOURCE = new Set([
  'resourceType',
  'id',
  'meta',
  'text',
  'language',
  'extension',
  'identifier',
  'code',
  'preferredReportName',
  'permittedDataType',
  'multipleResultsAllowed',
  'quantitativeDetails',
  'qualifiedInterval',
  'qualifiedValue',
  'permittedUnit',
  'contained',
  'validCodedValueSet',
]);
const DETAILS = new Set(['customaryUnit', 'unit', 'conversionFactor', 'decimalPrecision']);
const INTERVAL = new Set([
  'id',
  'extension',
  'category',
  'rangeCategory',
  'range',
  'context',
  'appliesTo',
  'gender',
  'age',
  'gestationalAge',
  'condition',
]);

/** Each element not read, by its path, once with how many times it stands in the resource. */
export function unreadElements(od: Rec, intervals: string): Warning[] {
  const counts = new Map<string, number>();
  const count = (path: string) => counts.set(path, (counts.get(path) ?? 0) + 1);
  for (const k of Object.keys(od)) if (!RESOURCE.has(k)) count(k);
  const details = od.quantitativeDetails;
  if (details && typeof details === 'object')
    for (const k of Object.keys(details)) if (!DETAILS.has(k)) count(`quantitativeDetails.${k}`);
  const list = od[intervals];
  if (Array.isArray(list))
    for (const q of list)
      if (q && typeof q === 'object') for (const k of Object.keys(q)) if (!INTERVAL.has(k)) count(`${intervals}.${k}`);
  return [...counts].map(([path, n]) => ({
    field: path,
    message: `not read: a measure has no field for it, so it is left out${n > 1 ? ` (${n} times)` : ''}`,
  }));
}

/**
 * An R5 ObservationDefinition read as R4 words it, with the name of its intervals' element: R5 is told by
 * `qualifiedValue` or `permittedUnit`, which R4 does not have. Its first permitted unit is the measure's unit
 * (R5 has no customary and SI pair); the others are a warning. Each interval's `rangeCategory` is R4's
 * `category`.
 */
export function asR4(od: Rec, warnings: Warning[]): { od: Rec; intervals: string } {
  if (od.qualifiedValue === undefined && od.permittedUnit === undefined) return { od, intervals: 'qualifiedInterval' };
  const units = Array.isArray(od.permittedUnit) ? (od.permittedUnit as Rec[]) : [];
  if (units.length > 1)
    warnings.push({
      field: 'permittedUnit',
      message: `only the first unit (${String(units[0]?.code ?? units[0]?.display)}) is kept of ${units.length}`,
    });
  const first = units[0];
  const read: Rec = { ...od };
  if (first && od.quantitativeDetails === undefined)
    read.quantitativeDetails = { customaryUnit: { coding: [first], ...(first.code ? {} : { text: first.display }) } };
  read.qualifiedInterval = (Array.isArray(od.qualifiedValue) ? (od.qualifiedValue as Rec[]) : []).map((q) =>
    q && typeof q === 'object' && q.category === undefined ? { ...q, category: q.rangeCategory } : q,
  );
  return { od: read, intervals: 'qualifiedValue' };
}
