import type { z } from 'zod';
import { toFieldErrors } from '../../schemas/common.js';
import { readAgesIn } from '../ages.js';
import type { Adapted } from '../fhir/from-observation-definition.js';
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
  /** Its place among all records of the input (0-based), to keep messages in the input's order. */
  ordinal: number;
  /** Whether it drew a warning (a record read back from the spool keeps only that of its warnings). */
  warned: boolean;
}

/** The validated record, for comparing with the stored one. */
export const bodyOf = (p: Prepared): Record<string, unknown> => JSON.parse(p.json) as Record<string, unknown>;

interface Preparation {
  records: Prepared[];
  errors: string[];
  warnings: string[];
  serviceFieldsLeftOut: Map<string, number>;
}

/**
 * Checks records one at a time with the shared create schema, keeping only what the whole input needs:
 * the first `limit` errors and warnings (and how many there were), the fields set aside, and each
 * record's key with the id it carried. An import of 100,000 records holds no record past its check.
 */
export class Checker {
  /** The first `limit` errors, in the input's order, and where each record stands (`errorAt`). */
  errors: string[] = [];
  private errorAt: number[] = [];
  errorCount = 0;
  readonly warnings: string[] = [];
  warningCount = 0;
  /** Records with an error; records with an error or a warning (what --strict refuses). */
  invalid = 0;
  flagged = 0;
  /** The fields the service sets that the input gave, left out of what is sent: field → records. */
  readonly serviceFieldsLeftOut = new Map<string, number>();
  /**
   * A 32-bit hash of each valid record's natural key, to find duplicates: a small integer is a fraction of
   * the memory of the key as a string. A hash seen before makes the key a suspect; only the records
   * read back (settle()) tell a duplicate from two keys that share a hash.
   */
  private hashes = new Set<number>();
  private readonly suspects = new Set<string>();
  /** The scopes (tests or contracts) the records name, for --prune. */
  readonly scopes = new Set<string>();
  private checked = 0;

  constructor(
    private readonly spec: SyncSpec,
    private readonly limit = Number.POSITIVE_INFINITY,
  ) {}

  private error(text: string, at = this.checked): void {
    if (this.errorCount++ < this.limit) {
      this.errors.push(text);
      this.errorAt.push(at);
    }
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
      const h = hashOf(prepared.key);
      if (this.hashes.has(h)) this.suspects.add(prepared.key);
      else this.hashes.add(h);
      if (prepared.scope !== undefined && spec.scope !== undefined) this.scopes.add(prepared.scope);
    }
    this.checked++;
    return prepared;
  }

  /** Whether any key may be repeated; settle() then reads the records again to know. */
  get unsettled(): boolean {
    return this.suspects.size > 0;
  }

  /**
   * Given the valid records again, in order, finds the duplicates among the suspects, counts them as
   * invalid and words each with where its key was first seen, in the input's order among the errors.
   */
  async settle(records: AsyncIterable<Prepared[]> | Iterable<Prepared[]>): Promise<void> {
    const first = new Map<string, Prepared>();
    for await (const batch of records)
      for (const r of batch) {
        if (!this.suspects.has(r.key)) continue;
        const earlier = first.get(r.key);
        if (!earlier) {
          first.set(r.key, r);
          continue;
        }
        this.invalid++;
        if (!r.warned) this.flagged++;
        const label = this.spec.label(bodyOf(r));
        this.error(`${where(r.src, r.name)}: the same ${label} as ${where(earlier.src, earlier.name)}`, r.ordinal);
      }
    // Errors found now join those found in the first pass in the input's order.
    const order = this.errors.map((_, i) => i).sort((a, b) => this.errorAt[a] - this.errorAt[b] || a - b);
    this.errors = order.slice(0, this.limit).map((i) => this.errors[i]);
    this.errorAt = order.slice(0, this.limit).map((i) => this.errorAt[i]);
    this.suspects.clear();
  }

  /** Lets go of the hashes once every record is checked. */
  forget(): void {
    this.hashes = new Set();
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
        if (!adapted) this.serviceFieldsLeftOut.set(field, (this.serviceFieldsLeftOut.get(field) ?? 0) + 1);
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
    const cellOf = src.cellOf;
    const at = () => where(origin, raw.name);
    // A record read from FHIR is named by its FHIR paths, with the measure's field in brackets.
    const path = (p: string) => (adapted && adapted.pathOf(p) !== p ? `${adapted.pathOf(p)} (${p})` : p);
    // A record read from a sheet is named by the cell: `catalog.csv:14:9 (Potassium): max: …`.
    const place = (p: string) => {
      const cell = cellOf?.(p) ?? cellOf?.(p.replace(/\.[^.[]+$/, ''));
      return cell === undefined
        ? `${at()}: ${path(p)}`
        : `${cell}${typeof raw.name === 'string' ? ` (${raw.name})` : ''}: ${p}`;
    };
    for (const w of adapted?.warnings ?? []) this.warning(`${at()}: ${w.field}: ${w.message}`);
    if (adapted?.skip) {
      if (adapted.scope !== undefined && spec.scope !== undefined) this.scopes.add(adapted.scope);
      return undefined;
    }
    if (adapted && adapted.errors.length > 0) {
      for (const e of adapted.errors) this.error(`${at()}: ${path(e.path)}: ${e.message}`);
      return undefined;
    }
    // Ages written with their unit ("28d", "11mo") become the years the service stores, as every input has them.
    const ages = readAgesIn(raw);
    for (const e of ages) this.error(`${place(e.path)}: ${e.message}`);
    if (ages.length > 0) return undefined;
    const parsed = spec.create.safeParse(raw);
    if (!parsed.success) {
      for (const e of toFieldErrors(parsed.error, raw)) this.error(`${place(e.path)}: ${e.message}`);
      return undefined;
    }
    const body = parsed.data;
    const key = spec.key(body);
    const ws = [...(adapted?.warnings ?? []), ...(spec.lint?.(body) ?? [])];
    for (const w of ws.slice(adapted?.warnings.length ?? 0)) this.warning(`${place(w.field)}: ${w.message}`);
    const scope = spec.scope === undefined ? undefined : String(body[spec.scope]);
    const json = JSON.stringify(body);
    return {
      src: origin,
      id,
      name: body.name,
      key,
      scope,
      json,
      warnings: ws,
      ordinal: this.checked,
      warned: ws.length > 0,
    };
  }
}

/** FNV-1a over the key's UTF-16 code units: a small integer, so a set of 100,000 stays small. */
export function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** Validates every record of a list held in memory (`measures lint`), listing every error and warning. */
export async function prepare(spec: SyncSpec, sources: SourceRecord[]): Promise<Preparation> {
  const checker = new Checker(spec);
  const records: Prepared[] = [];
  for (const src of sources) {
    const p = checker.check(src);
    if (p) records.push(p);
  }
  if (checker.unsettled) await checker.settle([records]);
  return {
    records,
    errors: checker.errors,
    warnings: checker.warnings,
    serviceFieldsLeftOut: checker.serviceFieldsLeftOut,
  };
}

/**
 * A checked record as one line of the import's spool: where it came from, its id, name, key, scope,
 * place and whether it drew a warning as a JSON array, a tab (never raw in JSON text), then the body.
 */
export function toLine(p: Prepared): string {
  const { source, position, line, entry } = p.src;
  const meta = [source, position, line ?? null, entry ?? null, p.id ?? null, p.name, p.key, p.scope ?? null];
  meta.push(p.ordinal, p.warned);
  return `${JSON.stringify(meta)}\t${p.json}`;
}

export function fromLine(text: string): Prepared {
  const tab = text.indexOf('\t');
  const [source, position, line, entry, id, name, key, scope, ordinal, warned] = JSON.parse(text.slice(0, tab)) as [
    string,
    number,
    number | null,
    number | null,
    string | null,
    unknown,
    string,
    string | null,
    number,
    boolean,
  ];
  return {
    src: { source, position, ...(line !== null ? { line } : {}), ...(entry !== null ? { entry } : {}) },
    ...(id !== null ? { id } : {}),
    name,
    key,
    ...(scope !== null ? { scope } : {}),
    json: text.slice(tab + 1),
    warnings: [],
    ordinal,
    warned,
  };
}
