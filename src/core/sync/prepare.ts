import type { z } from 'zod';
import { toFieldErrors } from '../../schemas/common.js';
import type { Warning } from '../lint.js';
import { where, type SourceRecord } from '../records.js';

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
  create: z.ZodType<Record<string, unknown>>;
  lint?: (r: Record<string, unknown>) => Warning[];
}

export interface Prepared {
  src: SourceRecord;
  /** The id the input carried (from a `list -o json` export), used to find the record first. */
  id?: string;
  body: Record<string, unknown>;
  warnings: Warning[];
}

export interface Preparation {
  records: Prepared[];
  errors: string[];
  warnings: string[];
  setAside: Map<string, number>;
}

/**
 * Validates every record with the shared create schema before anything is sent. Each raw record is
 * replaced by its validated form as it goes, so the input is held once.
 */
export function prepare(spec: SyncSpec, sources: SourceRecord[]): Preparation {
  const records: Prepared[] = [];
  const errors: string[] = [];
  const warnings: string[] = [];
  const setAside = new Map<string, number>();
  const seen = new Map<string, string>();
  for (const src of sources) {
    const raw = src.value;
    const id = typeof raw.id === 'string' ? raw.id : undefined;
    for (const field of spec.serviceSet) {
      if (field in raw) {
        setAside.set(field, (setAside.get(field) ?? 0) + 1);
        delete raw[field];
      }
    }
    const at = where(src, raw.name);
    const parsed = spec.create.safeParse(raw);
    if (!parsed.success) {
      for (const e of toFieldErrors(parsed.error, raw)) errors.push(`${at}: ${e.path}: ${e.message}`);
      continue;
    }
    const body = parsed.data;
    const key = spec.key(body);
    const earlier = seen.get(key);
    if (earlier) errors.push(`${at}: the same ${spec.label(body)} as ${earlier}`);
    else seen.set(key, at);
    const ws = spec.lint?.(body) ?? [];
    for (const w of ws) warnings.push(`${at}: ${w.field}: ${w.message}`);
    src.value = body;
    records.push({ src, id, body, warnings: ws });
  }
  return { records, errors, warnings, setAside };
}
