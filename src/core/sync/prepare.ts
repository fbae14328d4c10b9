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
 * Checks records one at a time with the shared create schema, keeping only what the whole input needs:
 * the first `limit` errors and warnings (and how many there were), the fields set aside, and each
 * record's key with the id it carried. An import of 100,000 records holds no record past its check.
 */
export class Checker {
  readonly errors: string[] = [];
  errorCount = 0;
  readonly warnings: string[] = [];
  warningCount = 0;
  /** Records with an error; records with an error or a warning (what --strict refuses). */
  invalid = 0;
  flagged = 0;
  readonly setAside = new Map<string, number>();
  /** Each valid record's natural key, to find duplicates; let go once the input is checked (forget()). */
  private seen = new Set<string>();
  /** The scopes (tests or contracts) the records name, for --prune. */
  readonly scopes = new Set<string>();
  /** Duplicates, by the place of their message in `errors`, to be told where the key was first seen. */
  private readonly repeats: { at: number; key: string; text: string }[] = [];

  constructor(
    private readonly spec: SyncSpec,
    private readonly limit = Number.POSITIVE_INFINITY,
  ) {}

  private error(text: string): void {
    if (this.errorCount++ < this.limit) this.errors.push(text);
  }

  private warning(text: string): void {
    if (this.warningCount++ < this.limit) this.warnings.push(text);
  }

  /** The record checked and ready to send, or undefined when it is in error or skipped. */
  check(src: SourceRecord): Prepared | undefined {
    const { spec } = this;
    const [errors, warnings] = [this.errorCount, this.warningCount];
    const prepared = this.prepareOne(src);
    if (this.errorCount > errors) this.invalid++;
    if (this.errorCount > errors || this.warningCount > warnings) this.flagged++;
    if (prepared) {
      this.seen.add(prepared.key);
      if (prepared.scope !== undefined && spec.scope !== undefined) this.scopes.add(prepared.scope);
    }
    return prepared;
  }

  private prepareOne(src: SourceRecord): Prepared | undefined {
    const { spec } = this;
    let raw = src.value;
    const adapted = spec.adapt?.(raw);
    if (adapted) raw = adapted.value;
    const id = typeof raw.id === 'string' ? raw.id : undefined;
    for (const field of spec.serviceSet) {
      if (field in raw) {
        // An id read from a FHIR identifier was never a field of the input: nothing to tell.
        if (!adapted) this.setAside.set(field, (this.setAside.get(field) ?? 0) + 1);
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
    for (const w of adapted?.warnings ?? []) this.warning(`${at()}: ${w.field}: ${w.message}`);
    if (adapted?.skip) return undefined;
    if (adapted && adapted.errors.length > 0) {
      for (const e of adapted.errors) this.error(`${at()}: ${path(e.path)}: ${e.message}`);
      return undefined;
    }
    const parsed = spec.create.safeParse(raw);
    if (!parsed.success) {
      for (const e of toFieldErrors(parsed.error, raw)) this.error(`${at()}: ${path(e.path)}: ${e.message}`);
      return undefined;
    }
    const body = parsed.data;
    const key = spec.key(body);
    if (this.seen.has(key)) {
      const text = `${at()}: the same ${spec.label(body)} as `;
      if (this.errors.length < this.limit) this.repeats.push({ at: this.errors.length, key, text });
      this.error(text);
    }
    const ws = [...(adapted?.warnings ?? []), ...(spec.lint?.(body) ?? [])];
    for (const w of ws.slice(adapted?.warnings.length ?? 0)) this.warning(`${at()}: ${w.field}: ${w.message}`);
    const scope = spec.scope === undefined ? undefined : String(body[spec.scope]);
    return { src: origin, id, name: body.name, key, scope, json: JSON.stringify(body), warnings: ws };
  }

  /** Lets go of the keys once every record is checked: 100,000 of them are ~10 MB. */
  forget(): void {
    this.seen = new Set();
  }

  /** The keys seen twice, whose messages wait for settle(). */
  get repeated(): Set<string> {
    return new Set(this.repeats.map((r) => r.key));
  }

  /** Completes each duplicate's message with where its key was first seen (`first`: key → place). */
  settle(first: Map<string, string>): void {
    for (const r of this.repeats) this.errors[r.at] = `${r.text}${first.get(r.key)}`;
  }
}

/** Where each repeated key was first seen, from the records in their order. */
export function firstPlaces(repeated: Set<string>, records: Iterable<Prepared>): Map<string, string> {
  const first = new Map<string, string>();
  for (const r of records) if (repeated.has(r.key) && !first.has(r.key)) first.set(r.key, where(r.src, r.name));
  return first;
}

/** Validates every record of a list held in memory (`measures lint`), listing every error and warning. */
export function prepare(spec: SyncSpec, sources: SourceRecord[]): Preparation {
  const checker = new Checker(spec);
  const records: Prepared[] = [];
  for (const src of sources) {
    const p = checker.check(src);
    if (p) records.push(p);
  }
  checker.settle(firstPlaces(checker.repeated, records));
  return { records, errors: checker.errors, warnings: checker.warnings, setAside: checker.setAside };
}

/**
 * A checked record as one line of the import's spool: where it came from, its id, name, key and scope
 * as a JSON array, a tab (never raw in JSON text), then the body to send.
 */
export function toLine(p: Prepared): string {
  const { source, position, line, entry } = p.src;
  const meta = [source, position, line ?? null, entry ?? null, p.id ?? null, p.name, p.key, p.scope ?? null];
  return `${JSON.stringify(meta)}\t${p.json}`;
}

export function fromLine(text: string): Prepared {
  const tab = text.indexOf('\t');
  const [source, position, line, entry, id, name, key, scope] = JSON.parse(text.slice(0, tab)) as [
    string,
    number,
    number | null,
    number | null,
    string | null,
    unknown,
    string,
    string | null,
  ];
  return {
    src: { source, position, ...(line !== null ? { line } : {}), ...(entry !== null ? { entry } : {}) },
    ...(id !== null ? { id } : {}),
    name,
    key,
    ...(scope !== null ? { scope } : {}),
    json: text.slice(tab + 1),
    warnings: [],
  };
}
