import type { z } from 'zod';
import { toFieldErrors } from '../../schemas/common.js';
import type { Adapted } from '../fhir/observation-definition.js';
import type { Warning } from '../lint.js';
import { type SourceRecord, where } from '../records.js';

/** What the importer and apply need to know of a resource. */
export interface SyncSpec {
  noun: string;
  plural: string;
  path: string;
  /** Fields the service sets: set aside from input (an id still helps to find the record). */
  serviceSet: string[];
  createOnly: string[];
  /** The natural key that finds an existing record, e.g. (test, name). */
  key: (r: Record<string, unknown>) => string;
  label: (r: Record<string, unknown>) => string;
  /** The field `--prune` works within: a record's test or contract (the key's part other than name). */
  scope?: string;
  create: z.ZodType<Record<string, unknown>>;
  lint?: (r: Record<string, unknown>) => Warning[];
  /** Reads a record of another form (a FHIR ObservationDefinition) as one of ours; undefined: it is ours. */
  adapt?: (r: Record<string, unknown>) => Adapted | undefined;
}

export interface Prepared {
  /** Where the record came from, for messages (not the record itself, which is let go). */
  src: Pick<SourceRecord, 'source' | 'position' | 'line' | 'entry'>;
  /** The id the input carried (from a `list -o json` export), used to find the record first. */
  id?: string;
  name: unknown;
  /** The natural key, e.g. (test, name). */
  key: string;
  /** The record's value of the spec's scope field (its test or contract), for --prune. */
  scope?: string;
  /**
   * The validated record as the JSON that will be sent: a string holds a record in about a fifth of
   * the memory of its objects, and a 10,000-record import holds all of them until each is sent.
   */
  json: string;
  warnings: Warning[];
}

/** The validated record, for comparing with the stored one. */
export const bodyOf = (p: Prepared): Record<string, unknown> => JSON.parse(p.json) as Record<string, unknown>;

export interface Preparation {
  records: Prepared[];
  errors: string[];
  warnings: string[];
  setAside: Map<string, number>;
}

/**
 * Validates every record with the shared create schema before anything is sent. Each raw record is
 * let go as soon as it is validated, so the input is held once, as JSON text.
 */
export function prepare(spec: SyncSpec, sources: SourceRecord[]): Preparation {
  const records: Prepared[] = [];
  const errors: string[] = [];
  const warnings: string[] = [];
  const setAside = new Map<string, number>();
  // Where each key was first seen; messages are built only for the records that need one.
  const seen = new Map<string, { origin: Prepared['src']; name: unknown }>();
  for (const src of sources) {
    let raw = src.value;
    const adapted = spec.adapt?.(raw);
    if (adapted) raw = adapted.value;
    const id = typeof raw.id === 'string' ? raw.id : undefined;
    for (const field of spec.serviceSet) {
      if (field in raw) {
        // An id read from a FHIR identifier was never a field of the input: nothing to tell.
        if (!adapted) setAside.set(field, (setAside.get(field) ?? 0) + 1);
        delete raw[field];
      }
    }
    const origin = {
      source: src.source,
      position: src.position,
      ...(src.line !== undefined ? { line: src.line } : {}),
      ...(src.entry !== undefined ? { entry: src.entry } : {}),
    };
    src.value = {};
    const at = () => where(origin, raw.name);
    // A record read from FHIR is named by its FHIR paths, with the measure's field in brackets.
    const path = (p: string) => (adapted && adapted.pathOf(p) !== p ? `${adapted.pathOf(p)} (${p})` : p);
    for (const w of adapted?.warnings ?? []) warnings.push(`${at()}: ${w.field}: ${w.message}`);
    if (adapted?.skip) continue;
    if (adapted && adapted.errors.length > 0) {
      for (const e of adapted.errors) errors.push(`${at()}: ${path(e.path)}: ${e.message}`);
      continue;
    }
    const parsed = spec.create.safeParse(raw);
    if (!parsed.success) {
      for (const e of toFieldErrors(parsed.error, raw)) errors.push(`${at()}: ${path(e.path)}: ${e.message}`);
      continue;
    }
    const body = parsed.data;
    const key = spec.key(body);
    const earlier = seen.get(key);
    if (earlier) errors.push(`${at()}: the same ${spec.label(body)} as ${where(earlier.origin, earlier.name)}`);
    else seen.set(key, { origin, name: raw.name });
    const ws = [...(adapted?.warnings ?? []), ...(spec.lint?.(body) ?? [])];
    for (const w of ws.slice(adapted?.warnings.length ?? 0)) warnings.push(`${at()}: ${w.field}: ${w.message}`);
    const scope = spec.scope === undefined ? undefined : String(body[spec.scope]);
    records.push({ src: origin, id, name: body.name, key, scope, json: JSON.stringify(body), warnings: ws });
  }
  return { records, errors, warnings, setAside };
}
