import type { Warning } from '../../core/lint.js';
import { isRecord, type Rec } from '../json/record.js';

/**
 * A coded measure's choices as a ValueSet contained in the resource, referenced by `validCodedValueSet`,
 * as FHIR catalogs are written. A FHIR code has no leading or trailing white space and no runs of it.
 */
export function choicesValueSet(choices: string[], system: string): { contained: Rec[]; validCodedValueSet: Rec } {
  const concept = choices.map((c) => ({ code: c.trim().replace(/\s+/g, ' ') || '-', display: c }));
  return {
    contained: [
      {
        resourceType: 'ValueSet',
        id: 'choices',
        status: 'active',
        compose: { include: [{ system, concept }] },
      },
    ],
    validCodedValueSet: { reference: '#choices' },
  };
}

/** The answers a ValueSet lists: each concept's display, else its code, from the compose and the expansion. */
function answers(vs: Rec): string[] {
  const out = new Set<string>();
  const add = (c: unknown) => {
    if (!isRecord(c)) return;
    const text =
      typeof c.display === 'string' && c.display ? c.display : typeof c.code === 'string' ? c.code : undefined;
    if (text !== undefined) out.add(text);
  };
  const compose = isRecord(vs.compose) ? vs.compose : {};
  for (const inc of Array.isArray(compose.include) ? compose.include : [])
    for (const c of isRecord(inc) && Array.isArray(inc.concept) ? inc.concept : []) add(c);
  const walk = (list: unknown) => {
    for (const c of Array.isArray(list) ? list : []) {
      add(c);
      if (isRecord(c)) walk(c.contains);
    }
  };
  if (isRecord(vs.expansion)) walk(vs.expansion.contains);
  return [...out];
}

/**
 * The answers of the ValueSets already read, by ValueSet: one import keeps one, so a ValueSet that 60
 * definitions of a Bundle share (containValueSets gives them the same contained copy) is read once.
 */
export type ValueSetAnswers = WeakMap<Rec, string[]>;

/**
 * The choices of a coded ObservationDefinition, from the ValueSet its `validCodedValueSet` references when
 * it is contained (`#id`); records.ts puts one found elsewhere in the same Bundle there. Undefined with a
 * warning when there is none to read: the measure is then held as text, not refused.
 */
export function codedChoices(
  od: Rec,
  warnings: Warning[],
  known: ValueSetAnswers = new WeakMap(),
): string[] | undefined {
  const ref = isRecord(od.validCodedValueSet) ? od.validCodedValueSet.reference : undefined;
  const contained = (Array.isArray(od.contained) ? od.contained : []).filter(
    (c): c is Rec => isRecord(c) && c.resourceType === 'ValueSet',
  );
  const vs = typeof ref === 'string' && ref.startsWith('#') ? contained.find((c) => `#${c.id}` === ref) : undefined;
  let found: string[] = [];
  if (vs) {
    found = known.get(vs) ?? answers(vs);
    known.set(vs, found);
  }
  if (found.length > 0) return found;
  warnings.push({
    field: ref === undefined ? 'permittedDataType' : 'validCodedValueSet',
    message:
      ref === undefined
        ? 'a coded result with no ValueSet of answers: held as text'
        : `the ValueSet ${String(ref)} is neither in this file nor contained, or lists no answers: held as text`,
  });
  return undefined;
}

/**
 * Puts each ValueSet of a Bundle into the ObservationDefinitions that reference it (by relative reference
 * `ValueSet/id`, by the entry's fullUrl, or by the ValueSet's canonical url), as a contained ValueSet, so a
 * resource carries its answers when it is read on its own.
 */
export function containValueSets(resources: Rec[], fullUrls: (string | undefined)[]): void {
  const byRef = new Map<string, Rec>();
  resources.forEach((r, i) => {
    if (r.resourceType !== 'ValueSet') return;
    if (typeof r.id === 'string') byRef.set(`ValueSet/${r.id}`, r);
    if (typeof r.url === 'string') byRef.set(r.url, r);
    if (fullUrls[i]) byRef.set(fullUrls[i]!, r);
  });
  if (byRef.size === 0) return;
  // One copy of a ValueSet for each id it is given, shared by the definitions that contain it under that id.
  const copies = new Map<Rec, Map<string, Rec>>();
  const copyOf = (vs: Rec, id: string): Rec => {
    const byId = copies.get(vs) ?? new Map<string, Rec>();
    copies.set(vs, byId);
    const copy = byId.get(id) ?? { ...vs, id };
    byId.set(id, copy);
    return copy;
  };
  for (const r of resources) {
    if (r.resourceType !== 'ObservationDefinition' || !isRecord(r.validCodedValueSet)) continue;
    const ref = r.validCodedValueSet.reference;
    const vs = typeof ref === 'string' ? byRef.get(ref) : undefined;
    if (!vs) continue;
    const id = `vs${(Array.isArray(r.contained) ? r.contained.length : 0) + 1}`;
    r.contained = [...(Array.isArray(r.contained) ? r.contained : []), copyOf(vs, id)];
    r.validCodedValueSet = { ...r.validCodedValueSet, reference: `#${id}` };
  }
}
