import type { CollectionName } from '../schemas/data-file.js';
import { sameNameForm } from '../schemas/names.js';

// One entry per resource, read by the server, the commands, completion, the importer and the tables.
// It holds what the zod schemas cannot say (paths, flags, columns); what they can say (required,
// create-only, service-set) is derived from them into facts.ts by `npm run generate`.

/** How a flag's text becomes the field's value. */
export type FlagKind = 'string' | 'number' | 'list' | 'ranges' | 'panic-ranges';

/** How a column shows its field; output/columns.ts draws each. */
export type ColumnFormat =
  | 'text'
  | 'time'
  | 'ranges'
  | 'range-count'
  | 'amount'
  | 'applies-to'
  | 'seen'
  | 'list'
  | 'excerpt';

export interface FieldEntry {
  /** The flag that sets the field on create and update, e.g. `--hl7-code <code>`; none: --file or --data only. */
  flag?: string;
  help?: string;
  /** Default string. */
  kind?: FlagKind;
  /** The fixed values a flag allows, from src/schemas/values.ts (the schemas' enums are built from them). */
  choices?: readonly string[];
  /** Column header in tables and CSV; none: not a column. */
  header?: string;
  /** In the default table. */
  shown?: boolean;
  /** Default text. */
  format?: ColumnFormat;
  /** Free text (a name, a title): narrowed first, and given room, when a table line is too wide. */
  free?: boolean;
  /**
   * The text a line is read for (a notification's title): it keeps LEAD_WIDTH columns while the others
   * but the id are cut, down to 4, and a time shortens to `11-27 04:17`; implies `free`.
   */
  lead?: boolean;
}

/** A column of `-o wide` drawn from a field in another way than the field's own column. */
interface DerivedColumn {
  key: string;
  field: string;
  header: string;
  format: ColumnFormat;
  free?: boolean;
  /** In the default table (a column of `derived`). */
  shown?: boolean;
}

export interface SchemaSet {
  create: import('zod').ZodType<Record<string, unknown>>;
  patch: import('zod').ZodType<Record<string, unknown>>;
  entity: import('zod').ZodType<Record<string, unknown>>;
}

export interface Resource {
  /** The command group: measures, coverages, notifications. */
  group: string;
  noun: string;
  plural: string;
  /** The API path, e.g. /diagnostic-measures. */
  path: string;
  collection: CollectionName;
  /** Prefix of the ids the bundled server gives, e.g. msr. */
  idPrefix: string;
  /** The natural key import and apply find a record by, e.g. (test, name); none: read-only. */
  key?: readonly string[];
  /** Fields in column order; flags are listed in the same order. */
  fields: Readonly<Record<string, FieldEntry>>;
  /** Fields `list` filters on by exact value (`--test ID`), client-side: the API has no filters. */
  filters?: readonly string[];
  /** Columns drawn from a field in another way than its own, after the fields' columns; `--fields` names them. */
  derived?: readonly DerivedColumn[];
  /** What `-o wide` adds to the shown columns (kubectl's convention): field keys or derived columns. */
  wide: readonly (string | DerivedColumn)[];
  /** Keys a file may hold this resource's records under, as the seed's `{"diagnosticAnalyzers": [...]}`. */
  wrappers?: readonly string[];
  /** Reading one record (GET by id) adds the caller's account to its `seenBy`, once. */
  marksSeen?: boolean;
  /** Lists of sub-records the server gives an id when one comes without: field to id prefix. */
  subIds?: Readonly<Record<string, string>>;
  /** A field naming one of the server's contracts, and the fields the server copies from that contract. */
  fromContract?: { field: string; copies: readonly string[] };
  /** A name for the `list --name-like` example of the help. */
  nameExample: string;
  /** The zod schemas of a writable resource, loaded when needed (help never loads zod). */
  schemas?: () => Promise<SchemaSet>;
}

/** A record's natural key as one string, e.g. test and name joined by NUL. */
export const naturalKey = (res: Resource, r: Record<string, unknown>) =>
  (res.key ?? ['id']).map((k) => sameNameForm(String(r[k]))).join('\u0000');

/** The key in words: "test tst_bmp and name Sodium". */
export const keyWords = (res: Resource, r: Record<string, unknown>) =>
  (res.key ?? ['id']).map((k) => `${k} ${String(r[k])}`).join(' and ');

/** The fields every writable resource has alike: the creation time (settable) and who created it. */
export const CREATED_FIELDS: Readonly<Record<string, FieldEntry>> = {
  createdAt: {
    flag: '--created-at <ms>',
    help: 'creation time in milliseconds since the epoch',
    kind: 'number',
    header: 'CREATED',
    format: 'time',
  },
  createdBy: { header: 'CREATED BY' },
};
