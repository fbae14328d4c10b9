import type { z } from 'zod';
import type { Adapted } from '../../formats/adapted.js';
import type { Carrier } from '../../formats/kept.js';
import { type SourceRecord, where } from '../../formats/records.js';
import { toFieldErrors } from '../../schemas/common.js';
import { hashOf } from '../../strings.js';
import { readAgesIn } from '../ages.js';
import type { Warning } from '../lint.js';
import { type Place, Ranked } from '../problems.js';

/** The name of one range in a record's path or a check's message. */
const RANGE_NAME = /(?:referenceRanges|panicRanges)\[\d+\]/g;

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
  /** Its file's number among the inputs (from 1), to place a duplicate's error in the input's order. */
  file: number;
  /** Whether it drew a warning (a record read back from the spool keeps only that of its warnings). */
  warned: boolean;
  /** Its file's format, where that has no place for some fields (sync/kept.ts). */
  carrier?: Carrier;
}

/** The validated record, for comparing with the stored one. */
export const bodyOf = (p: Prepared): Record<string, unknown> => JSON.parse(p.json) as Record<string, unknown>;

interface Preparation {
  records: Prepared[];
  errors: string[];
  warnings: string[];
  /** The same, each with its place, to list them as one (problems.ts's mixed()). */
  errorList: Ranked;
  warningList: Ranked;
  serviceFieldsLeftOut: Map<string, number>;
}

/**
 * Checks records one at a time with the shared create schema, keeping only what the whole input needs:
 * the first `limit` errors and warnings in the input's order (and how many there were), the fields set
 * aside, and each record's key with the id it carried. An import of 100,000 records holds no record past
 * its check. A record read with problems (a sheet's cells, csv/catalog.ts) brings them along: they are
 * its errors, beside what its checks find in the rest of it, and it is not sent.
 */
export class Checker {
  /** Errors and warnings, each kept by its place in the input (problems.ts). */
  readonly errorList: Ranked;
  readonly warningList: Ranked;
  /** Records with an error; records with an error or a warning (what --strict refuses). */
  invalid = 0;
  flagged = 0;
  /** Errors of a file rather than of a record in it (a sheet's columns): they too stop the input. */
  fileErrors = 0;
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
  /** The records the input deletes by name (HL7's MDL), for --prune: each by its id, else its natural key. */
  readonly named: { id?: string; key?: string }[] = [];
  private checked = 0;
  /** The input file being checked, counted from 1 (a file's first record is at position 1), and its name. */
  private file = 0;
  private source: string | undefined;

  constructor(
    private readonly spec: SyncSpec,
    limit = Number.POSITIVE_INFINITY,
  ) {
    this.errorList = new Ranked(limit);
    this.warningList = new Ranked(limit);
  }

  /** The first errors and warnings, in the input's order. */
  get errors(): string[] {
    return this.errorList.texts();
  }
  get errorCount(): number {
    return this.errorList.count;
  }
  get warnings(): string[] {
    return this.warningList.texts();
  }
  get warningCount(): number {
    return this.warningList.count;
  }

  /** The record checked and ready to send, or undefined when it is in error or skipped. */
  check(src: SourceRecord): Prepared | undefined {
    const { spec } = this;
    if (src.position === 1 || src.source !== this.source) this.file++;
    this.source = src.source;
    // The file's own problems come first, in its order, and do not make the record beside them invalid.
    for (const e of src.fileProblems ?? []) this.errorList.push(e.text, [this.file, e.line, e.column]);
    this.fileErrors += src.fileProblems?.length ?? 0;
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
        this.errorList.push(`${where(r.src, r.name)}: the same ${label} as ${where(earlier.src, earlier.name)}`, [
          r.file,
          r.src.line ?? r.src.position,
        ]);
      }
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
    const here: Place = [this.file, src.line ?? src.position];
    const error = (text: string, place = here) => this.errorList.push(text, place);
    const warning = (text: string, place = here) => this.warningList.push(text, place);
    // A record read from FHIR is named by its FHIR paths, with the measure's field in brackets.
    const path = (p: string) => (adapted && adapted.pathOf(p) !== p ? `${adapted.pathOf(p)} (${p})` : p);
    // A record read from a sheet is named by the cell: `catalog.csv:14:9 (Potassium): max: …`.
    const place = (p: string, message: string): [string, Place] => {
      const cell = cellOf?.(p) ?? cellOf?.(p.replace(/\.[^.[]+$/, ''));
      return cell === undefined
        ? [`${at()}: ${path(p)}: ${message}`, here]
        : [
            `${cell.place}${typeof raw.name === 'string' ? ` (${raw.name})` : ''}: ${p}: ${message}`,
            [this.file, cell.line, cell.column],
          ];
    };
    // What the reading found (a sheet's cells) is the record's own first: it is not sent. What the checks
    // find in a range it could not read whole, or between that range and another (an overlap), is left
    // out: it would only echo the cell's error.
    for (const e of src.problems ?? []) error(e.text, [this.file, e.line, e.column]);
    for (const w of src.warnings ?? []) warning(w.text, [this.file, w.line, w.column]);
    this.warningList.more(src.moreWarnings ?? 0);
    this.errorList.more(src.moreProblems ?? 0);
    // A range is named `referenceRanges[3]` in a path and a message alike: each name is looked up once.
    const unread = new Set(src.unread);
    const names = (text: string) => text.match(RANGE_NAME) ?? [];
    const read = (p: string) => unread.size === 0 || !unread.has(names(p)[0] ?? '');
    for (const w of adapted?.warnings ?? []) warning(`${at()}: ${w.field}: ${w.message}`);
    if (adapted?.skip) {
      // A deletion widens no scope: a record the server lacks then deletes nothing beside it.
      if (adapted.deletes && spec.scope !== undefined) {
        const scoped = typeof raw[spec.scope] === 'string';
        if (id !== undefined || scoped) this.named.push({ id, key: scoped ? spec.key(raw) : undefined });
      }
      return undefined;
    }
    if (adapted && adapted.errors.length > 0) {
      for (const e of adapted.errors) error(`${at()}: ${path(e.path)}: ${e.message}`);
      return undefined;
    }
    // Ages written with their unit ("28d", "11mo") become the years the service stores, as every input has them.
    const ages = readAgesIn(raw);
    for (const e of ages) if (read(e.path)) error(...place(e.path, e.message));
    if (ages.length > 0) return undefined;
    const parsed = spec.create.safeParse(raw);
    if (!parsed.success) {
      for (const e of toFieldErrors(parsed.error, raw)) if (read(e.path)) error(...place(e.path, e.message));
      return undefined;
    }
    const body = parsed.data;
    const key = spec.key(body);
    // The reading's and the adapter's warnings are listed above; the checks' are listed here.
    const fromReading = (src.warnings ?? []).map(({ field, message }) => ({ field, message }));
    const given = [...fromReading, ...(adapted?.warnings ?? [])];
    const ws = [...given, ...(spec.lint?.(body) ?? [])];
    for (const w of ws.slice(given.length))
      if (read(w.field) && !names(w.message).some((n) => unread.has(n))) warning(...place(w.field, w.message));
    if (src.problems?.length) return undefined;
    const scope = spec.scope === undefined || adapted?.unscoped ? undefined : String(body[spec.scope]);
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
      file: this.file,
      warned: ws.length > 0,
      ...((adapted?.carrier ?? src.carrier) ? { carrier: adapted?.carrier ?? src.carrier } : {}),
    };
  }
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
    errorList: checker.errorList,
    warningList: checker.warningList,
    serviceFieldsLeftOut: checker.serviceFieldsLeftOut,
  };
}
