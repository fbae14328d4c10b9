import { quoted } from '../../core/problems.js';
import { isAgeValue, type Rec } from './model.js';

// Whom a FHIR qualifiedInterval is for, beyond the sex and ages a measure's range holds: its context, appliesTo,
// condition and gestationalAge. A context or condition that says the interval is the normal one is no limit.

/** R4's value set of what a reference range means (ObservationDefinition.qualifiedInterval.context). */
const MEANING = 'http://terminology.hl7.org/CodeSystem/referencerange-meaning';

const said = (text: unknown) => (typeof text === 'string' ? text.trim().toLowerCase() : undefined);

/** A CodeableConcept in a word: its text, else its first coding's display or code. */
function conceptText(c: unknown): string {
  const concept = (c ?? {}) as Rec;
  const coding = (Array.isArray(concept.coding) ? concept.coding[0] : undefined) as Rec | undefined;
  return String(concept.text ?? coding?.display ?? coding?.code ?? JSON.stringify(c));
}

/** Whether a context (CodeableConcept) says the interval is the normal range: referencerange-meaning `normal`. */
export function contextIsNormal(context: unknown): boolean {
  const concept = (context ?? {}) as Rec;
  const codings = Array.isArray(concept.coding) ? (concept.coding as Rec[]) : [];
  const coded = codings.some((c) => c?.code === 'normal' && (c.system === undefined || c.system === MEANING));
  return coded || (codings.length === 0 && said(concept.text) === 'normal');
}

/** A Range of a file in words: `20–40 wk`. */
function rangeText(r: unknown): string {
  const range = (r ?? {}) as Rec;
  const end = (q: unknown) => {
    const v = (q ?? {}) as Rec;
    return v.value === undefined ? '' : `${String(v.value)}${(v.unit ?? v.code) ? ` ${String(v.unit ?? v.code)}` : ''}`;
  };
  return `${end(range.low)}–${end(range.high)}`;
}

/**
 * Each element of an interval that limits it to people a measure's range cannot name, with its path and the
 * limit in words. `interpretation` is the interval's condition read as an interpretation (Normal, Low…), no limit.
 */
export function intervalLimits(q: Rec, at: string, interpretation: string | undefined) {
  const out: { place: string; what: string }[] = [];
  if (q.context !== undefined && !contextIsNormal(q.context))
    out.push({ place: `${at}.context`, what: `context ${quoted(conceptText(q.context))}` });
  if (q.appliesTo !== undefined) {
    const list = Array.isArray(q.appliesTo) ? q.appliesTo : [q.appliesTo];
    out.push({ place: `${at}.appliesTo`, what: `appliesTo ${quoted(list.map(conceptText).join(', '))}` });
  }
  if (q.condition !== undefined && !interpretation)
    out.push({ place: `${at}.condition`, what: `condition ${quoted(String(q.condition))}` });
  if (q.gestationalAge !== undefined)
    out.push({ place: `${at}.gestationalAge`, what: `gestational age ${quoted(rangeText(q.gestationalAge))}` });
  return out;
}

/** An age end we cannot read, in words: its unit is not an age unit, or its value is no age. */
export function ageWords(q: unknown): string {
  const v = (q ?? {}) as Rec;
  // JSON reads 1e400 as Infinity, which JSON.stringify would show as null.
  if (typeof v.value === 'number' && !Number.isFinite(v.value)) return `an age too large for a number (${v.value})`;
  if (!isAgeValue(v.value))
    return `an age of ${quoted(JSON.stringify(v.value) ?? 'nothing')}, not a number of 0 or more`;
  const unit = String(v.code ?? v.unit);
  return `an age in ${quoted(unit)}, not an age unit (UCUM a, mo, wk, d, h, min, or year, month, week, day, hour)`;
}
