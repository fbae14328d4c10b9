import { withAgeText } from '../core/ages.js';
import { jsonText } from '../core/number.js';
import { FACTS, measures } from '../resources/index.js';
import { catalogCsv } from './csv/write.js';
import { type CriticalAs, toObservationDefinition } from './fhir/observation-definition.js';
import { catalogHl7 } from './hl7/write.js';

// A measure catalog as a file: what `measures export` writes and `measures import` reads back, in a
// stable order, so that two exports of the same catalog are the same bytes and diff cleanly in git.

import type { ExportFormat } from './catalog-formats.js';
import type { Rec } from './json/record.js';

const FIELD_ORDER = Object.keys(measures.fields);
const RANGE_ORDER = ['id', 'min', 'minPrecision', 'max', 'maxPrecision', 'simin', 'siminPrecision', 'simax'].concat([
  'simaxPrecision',
  'sex',
  'ageMin',
  'ageMax',
]);
/** What the service sets, and when it was made there: neither belongs to a catalog that moves between servers. */
const LEFT_OUT = new Set([...FACTS.measures.serviceSet, 'createdAt']);

/** The keys of `r` in `order`, then any others (a field this version does not know) by name. */
function ordered(r: Rec, order: string[], skip = new Set<string>()): Rec {
  const keys = Object.keys(r).filter((k) => !skip.has(k));
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  keys.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, r[k]]));
}

/** A measure as a catalog entry: the import-ready fields in the registry's order, ranges in theirs. */
function catalogEntry(m: Rec): Rec {
  const out = ordered(m, FIELD_ORDER, LEFT_OUT);
  for (const f of ['referenceRanges', 'panicRanges'])
    if (Array.isArray(out[f])) out[f] = (out[f] as Rec[]).map((r) => ordered(r, RANGE_ORDER));
  return out;
}

/** A catalog entry as a JSON file writes it: ages in the lab's notation (ages.ts), as people write them. */
function jsonEntry(m: Rec): Rec {
  const out = catalogEntry(m);
  for (const f of ['referenceRanges', 'panicRanges'])
    if (Array.isArray(out[f])) out[f] = (out[f] as Rec[]).map((r) => withAgeText(r));
  return out;
}

/** By test, then name, by code point (never the locale's order, which differs between machines). */
function byTestThenName(a: Rec, b: Rec): number {
  const key = (r: Rec) => [String(r.test ?? ''), String(r.name ?? '')];
  const [ta, na] = key(a);
  const [tb, nb] = key(b);
  return ta < tb ? -1 : ta > tb ? 1 : na < nb ? -1 : na > nb ? 1 : 0;
}

/**
 * The catalog file's text in one of the export formats. `criticalAs` writes panic ranges in FHIR as the
 * definition's limits (the default) or as one-sided zones (see fhir/critical.ts).
 */
export function catalogText(
  list: Rec[],
  format: ExportFormat,
  isUcum: (unit: string) => boolean,
  criticalAs: CriticalAs = 'limits',
  delimiter: ',' | ';' | '\t' = ',',
  now = new Date(),
): string {
  const sorted = [...list].sort(byTestThenName);
  if (format === 'hl7') return catalogHl7(sorted, now);
  if (format === 'json') return `${jsonText(sorted.map(jsonEntry), 2)}\n`;
  if (format === 'csv') return catalogCsv(sorted.map(catalogEntry), delimiter);
  const resources = sorted.map((m) => toObservationDefinition(m, isUcum, criticalAs));
  if (format === 'fhir-ndjson') return resources.map((r) => `${jsonText(r)}\n`).join('');
  const bundle = { resourceType: 'Bundle', type: 'collection', entry: resources.map((resource) => ({ resource })) };
  return `${jsonText(bundle, 2)}\n`;
}

// Read as code points (the u flag), a pair is one character and only half of one is a surrogate.
const LONE_SURROGATE = /\p{Cs}/u;

/** Each text of `value` that is not well-formed UTF-16 (a lone surrogate), by its path: `ranges[0].label`. */
function brokenTexts(value: unknown, path: string, out: string[]): void {
  if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value)) out.push(path);
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) brokenTexts(value[i], `${path}[${i}]`, out);
  } else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) brokenTexts(v, path === '' ? k : `${path}.${k}`, out);
}

/**
 * What a format of bytes cannot write: a CSV or HL7 file is UTF-8, which has no form for half of a UTF-16
 * pair (a server that cut a text mid-emoji), so such a text is written with U+FFFD and each is named.
 * JSON and FHIR write it as its `\u` escape, and lose nothing.
 */
export function unwritableTexts(list: readonly Rec[], format: ExportFormat): string[] {
  if (format !== 'csv' && format !== 'hl7') return [];
  return list.flatMap((m) => {
    const paths: string[] = [];
    brokenTexts(m, '', paths);
    return paths.map((p) => `${String(m.name)} (test ${String(m.test)}): ${p}`);
  });
}
