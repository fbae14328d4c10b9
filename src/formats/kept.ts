import { canon } from '../core/ages.js';
import { DATA_TYPE as FHIR_TYPE, systemUri } from './fhir/model.js';
import { DATA_TYPE as HL7_TYPE } from './hl7/table.js';
import type { Rec } from './json/record.js';

// What a format has no place for is left as the server holds it (docs/catalogs.md, "Fields and formats"): an
// import from HL7 v2, whose RFR holds one unit's range, never clears a range's SI bounds, and a type the
// format cannot tell from another (HL7's NM is numeric and numeric-breakdown alike) is not a change. So an
// unchanged catalog re-imported from any format plans nothing, and a real change is still sent whole.

/** The formats whose records may leave a field out (JSON carries every field). */
export type Carrier = 'hl7' | 'fhir' | 'csv';

/** Texts a sheet reads without the spaces and line breaks around them (docs/catalogs.md). */
const TEXTS = ['set', 'description', 'unit', 'siunit', 'hl7IdentifierCod', 'hl7IdentifierSys'];
const trimmed = (held: unknown, given: unknown) => typeof held === 'string' && held !== given && held.trim() === given;

/** A sheet's reading of the server's texts and lists, each as the server holds it where only spaces differ. */
function sheetTexts(out: Rec, stored: Rec): void {
  for (const f of TEXTS) if (trimmed(stored[f], out[f])) out[f] = stored[f];
  for (const f of ['sets', 'choices']) {
    const [given, held] = [out[f], stored[f]];
    if (!Array.isArray(given) || !Array.isArray(held) || given.length !== held.length) continue;
    if (held.some((h, i) => trimmed(h, given[i])) && held.every((h, i) => h === given[i] || trimmed(h, given[i])))
      out[f] = held;
  }
}

const SI_FIELDS = ['simin', 'simax', 'siminPrecision', 'simaxPrecision'] as const;
const RANGE_LISTS = ['referenceRanges', 'panicRanges'] as const;

const sameAge = (a: unknown, b: unknown) =>
  a === b || (typeof a === 'number' && typeof b === 'number' && canon(a) === canon(b));
const samePeople = (a: Rec, b: Rec) =>
  (a.sex ?? 'all') === (b.sex ?? 'all') && sameAge(a.ageMin, b.ageMin) && sameAge(a.ageMax, b.ageMax);

/**
 * Each incoming range's stored twin: the range at the same place when it is for the same people (sex and
 * ages), else the first one not yet taken that is.
 */
function twins(incoming: Rec[], stored: Rec[]): (Rec | undefined)[] {
  const taken = new Set<number>();
  return incoming.map((r, i) => {
    const at = stored[i] !== undefined && !taken.has(i) && samePeople(r, stored[i]) ? i : -1;
    const j = at >= 0 ? at : stored.findIndex((s, k) => !taken.has(k) && samePeople(r, s));
    if (j < 0) return undefined;
    taken.add(j);
    return stored[j];
  });
}

/** Alike within what a 12-digit conversionFactor says (SI bounds derived from it are off by 5 parts in 10^12). */
const twelve = (a: unknown, b: unknown) =>
  a === b || (typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) <= 1e-11 * Math.abs(b));

/** SI bounds a reader derived from a conversionFactor (no precision of their own): the stored ones to 12 digits. */
const derived = (r: Rec, twin: Rec) =>
  (r.simin !== undefined || r.simax !== undefined) &&
  r.siminPrecision === undefined &&
  r.simaxPrecision === undefined &&
  twelve(r.simin, twin.simin) &&
  twelve(r.simax, twin.simax);

/** A range's SI fields as the server holds them. */
const siOf = (twin: Rec) => Object.fromEntries(SI_FIELDS.filter((f) => twin[f] !== undefined).map((f) => [f, twin[f]]));

/** A range with SI bounds alone, which HL7's export leaves out (its RFR has no place for them). */
export const siOnly = (r: { min?: unknown; max?: unknown }) => r.min === undefined && r.max === undefined;

/**
 * HL7's RFR, and an R4 interval without our extensions, hold one unit's bounds: a range keeps the SI bounds
 * the server has for it, and a range of SI bounds alone that the file could not write stays where it is.
 */
function withStoredSi(incoming: unknown, stored: unknown): unknown {
  if (!Array.isArray(incoming) || !Array.isArray(stored)) return incoming;
  const pairs = twins(incoming as Rec[], stored as Rec[]);
  const out = (incoming as Rec[]).map((r, i) => {
    const twin = pairs[i];
    if (twin && derived(r, twin)) return { ...r, ...siOf(twin) };
    if (!twin || SI_FIELDS.some((f) => r[f] !== undefined)) return r;
    const si = siOf(twin);
    return Object.keys(si).length === 0 ? r : { ...r, ...si };
  });
  (stored as Rec[]).forEach((s, j) => {
    if (siOnly(s) && !pairs.includes(s)) out.splice(Math.min(j, out.length), 0, s);
  });
  return out;
}

/**
 * The record a file of `carrier` means, against the server's `stored` one: each field the format could not
 * say taken from the server (so it is no change), every other field as the file gives it.
 */
export function keptFrom(carrier: Carrier | undefined, body: Rec, stored: Rec): Rec {
  if (carrier === undefined) return body;
  const out = { ...body };
  if (carrier === 'csv') {
    sheetTexts(out, stored);
    return out;
  }
  const typeWord = carrier === 'hl7' ? HL7_TYPE : FHIR_TYPE;
  const [given, held] = [body.type, stored.type];
  if (typeof given === 'string' && typeof held === 'string' && given !== held && typeWord[given] === typeWord[held])
    out.type = held;
  for (const list of RANGE_LISTS) if (list in out) out[list] = withStoredSi(out[list], stored[list]);
  // A ValueSet lists an answer once: choices that repeat one come back without the repeat.
  const [choices, heldChoices] = [body.choices, stored.choices];
  if (carrier === 'fhir' && Array.isArray(choices) && Array.isArray(heldChoices))
    if (JSON.stringify([...new Set(heldChoices)]) === JSON.stringify(choices)) out.choices = heldChoices;
  const [sys, heldSys] = [body.hl7IdentifierSys, stored.hl7IdentifierSys];
  if (
    carrier === 'fhir' &&
    typeof sys === 'string' &&
    typeof heldSys === 'string' &&
    systemUri(sys) === systemUri(heldSys)
  )
    out.hl7IdentifierSys = heldSys;
  return out;
}
