import type { Ctx } from '../context.js';
import type { ReadProblem, ReadWarning } from '../core/problems.js';
import { UsageError } from '../errors.js';
import { RESOURCES } from '../resources/index.js';
import { parseCatalogCsv } from './csv/catalog.js';
import type { ColumnMap } from './csv/cells.js';
import { containValueSets } from './fhir/value-set.js';
import { hl7Records } from './hl7/read.js';
import { looksLikeHl7 } from './hl7/syntax.js';
import { readText, refuseAmbiguity } from './input.js';
import { parseKeepingDecimals } from './json/decimals.js';
import { describeJsonError, findAmbiguity, lineColumn, MAX_DEPTH, repeatedKey, scanValue } from './json/json-error.js';
import { isRecord } from './json/record.js';
import type { Carrier } from './kept.js';

/** One record of an input file, with where it came from for error messages. */
export interface SourceRecord {
  source: string;
  /** 1-based position in its file. */
  position: number;
  /** 1-based line, for NDJSON. */
  line?: number;
  /** 0-based index in a FHIR Bundle's `entry`, as FHIRPath counts (`entry[2]`). */
  entry?: number;
  value: Record<string, unknown>;
  /** For a CSV catalog: a field's cell (`file:line:column`, its line and column) by its path (`referenceRanges[0]`). */
  cellOf?: (path: string) => { place: string; line: number; column: number } | undefined;
  /** What reading the record found wrong (a sheet's cells): its errors; the first 50, then how many more. */
  problems?: ReadProblem[];
  /** What is wrong with the file it is the first record of (a sheet's columns): listed with it, not its own. */
  fileProblems?: ReadProblem[];
  /** What reading the record found worth a word, not wrong (a cell --column left out): its warnings. */
  warnings?: ReadWarning[];
  moreWarnings?: number;
  moreProblems?: number;
  /** Paths the reading could not take whole (a range with a bad cell), which its checks pass over. */
  unread?: string[];
  /** The format, where it has no place for some of what a field may hold (sync/kept.ts). */
  carrier?: Carrier;
}

/** Wrapper keys an exported collection may come under: each resource's (the registry's), then the usual. */
const WRAPPERS = [...RESOURCES.flatMap((r) => r.wrappers ?? []), 'items', 'data'];

function unwrap(value: unknown, source: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (isRecord(value) && value.resourceType === 'Bundle') return bundleResources(value, source);
  if (!isRecord(value))
    throw new UsageError(`${source}: expected a JSON array of records, one record object, or NDJSON`);
  const key =
    WRAPPERS.find((k) => Array.isArray(value[k])) ??
    (Object.keys(value).length === 1 && Array.isArray(Object.values(value)[0]) ? Object.keys(value)[0] : undefined);
  return key === undefined ? [value] : (value[key] as unknown[]);
}

/** A FHIR Bundle (of any type) holds its resources under entry[].resource. */
function bundleResources(bundle: Record<string, unknown>, source: string): unknown[] {
  const entries = bundle.entry ?? [];
  if (!Array.isArray(entries)) throw new UsageError(`${source}: Bundle.entry must be an array`);
  const resources = entries.map((e, i) => {
    if (!isRecord(e) || !isRecord(e.resource))
      throw new UsageError(`${source} entry[${i}]: expected an entry with a resource`);
    return e.resource;
  });
  // A coded measure's answers may stand in a ValueSet elsewhere in the Bundle: each resource takes its own.
  containValueSets(
    resources,
    entries.map((e) => (typeof e.fullUrl === 'string' ? e.fullUrl : undefined)),
  );
  return resources;
}

/**
 * Reads every input form: a JSON array, one object, an object holding an array (a wrapper such as
 * `diagnosticAnalyzers`), or NDJSON. The text is as readText gives it: UTF-8 without a BOM or NUL
 * bytes. It is dropped once parsed, so only one copy stays in memory.
 */
export function parseRecords(text: string, source: string, form?: InputForm, columns?: ColumnMap): SourceRecord[] {
  if (text.trim() === '') throw new UsageError(`${source} is empty`);
  // A spreadsheet's catalog: one row per range (csv/catalog.ts).
  if (form === 'csv' || (form === undefined && /\.(csv|tsv)$/i.test(source)))
    return parseCatalogCsv(text, source, columns);
  // An HL7 v2 master file (hl7/): by its first segment, whatever the file is called.
  if (looksLikeHl7(text)) return hl7Records(text, source);
  // A file named .hl7 is read as HL7 only, so JSON's errors never answer for it.
  if (form === 'hl7' || (form === undefined && HL7_NAME.test(source)))
    throw new UsageError(
      `${source} is not HL7 v2: its first segment must be MSH, FHS or BHS (a master file, MFN^M08)` +
        `${/(^|[\r\n])MSH/.test(text) ? '' : ', and it has no MSH segment'}`,
    );
  // FHIR's XML form is refused in one line: its JSON form says the same, and is what is read.
  if (/^\uFEFF?\s*</.test(text))
    throw new UsageError(
      text.includes('http://hl7.org/fhir')
        ? `${source} is FHIR XML, which is not read: give the same resources as FHIR JSON ` +
            '(a Bundle or ObservationDefinitions), as a FHIR server returns with _format=json'
        : `${source} is XML, not JSON, FHIR JSON, HL7 v2 or CSV`,
    );
  const spans = arrayOfObjects(text);
  if (spans) return spans.map((span, i) => lazyRecord(text, span, source, i + 1));
  let whole: unknown;
  let wholeError: string | undefined;
  try {
    whole = parseKeepingDecimals(text);
  } catch {
    wholeError = describeJsonError(text);
  }
  if (wholeError === undefined) {
    refuseAmbiguity(text, whole, source);
    const bundle = isRecord(whole) && whole.resourceType === 'Bundle';
    return unwrap(whole, source).map((value, i) => {
      if (!isRecord(value))
        throw new UsageError(
          `${source} record ${i + 1}: expected a JSON object, ` +
            `found ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`,
        );
      return bundle ? { source, position: i + 1, entry: i, value } : { source, position: i + 1, value };
    });
  }
  const lines = text.split('\n');
  const nonEmpty = lines.filter((l) => l.trim() !== '').length;
  // Several lines, the first a whole object: NDJSON. Anything else is one JSON text with a syntax error.
  const firstLine = lines.find((l) => l.trim() !== '')!;
  let firstIsObject = false;
  try {
    firstIsObject = isRecord(JSON.parse(firstLine));
  } catch {
    firstIsObject = false;
  }
  if (nonEmpty < 2 || !firstIsObject) throw new UsageError(`${source} is not valid JSON: ${wholeError}`);
  const out: SourceRecord[] = [];
  lines.forEach((l, i) => {
    if (l.trim() === '') return;
    let value: unknown;
    try {
      value = parseKeepingDecimals(l);
    } catch {
      const at = describeJsonError(l).replace(/^line 1, /, '');
      throw new UsageError(`${source} is not valid NDJSON: line ${i + 1}, ${at}`);
    }
    if (!isRecord(value)) throw new UsageError(`${source} line ${i + 1}: expected a JSON object`);
    const found = findAmbiguity(l, value);
    if (found) throw new UsageError(`${source} line ${i + 1}, column ${found.offset + 1}: ${found.message}`);
    out.push({ source, position: out.length + 1, line: i + 1, value });
  });
  return out;
}

/**
 * Where each object of a text that is exactly a JSON array of objects starts and ends, and how many
 * keys it holds, or undefined for any other text (or one nested too deep), which is then parsed whole.
 * Objects are parsed one at a time as the importer reaches them, so 10,000 records never stand in
 * memory as objects all at once.
 */
function arrayOfObjects(text: string): Span[] | undefined {
  const n = text.length;
  const ws = (i: number) => {
    while (
      i < n &&
      (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 10 || text.charCodeAt(i) === 13 || text.charCodeAt(i) === 9)
    )
      i++;
    return i;
  };
  let i = ws(0);
  if (text.charCodeAt(i) !== 91) return undefined;
  i = ws(i + 1);
  const spans: Span[] = [];
  if (text.charCodeAt(i) === 93) return ws(i + 1) === n ? spans : undefined;
  for (;;) {
    if (text.charCodeAt(i) !== 123) return undefined;
    // One level is the array's.
    const { end, keys } = scanValue(text, i, MAX_DEPTH - 1);
    if (end === undefined) return undefined;
    spans.push({ start: i, end, keys });
    i = ws(end);
    const c = text.charCodeAt(i);
    if (c === 93) return ws(i + 1) === n ? spans : undefined;
    if (c !== 44) return undefined;
    i = ws(i + 1);
  }
}

interface Span {
  start: number;
  end: number;
  keys: number;
}

/** A record parsed on first use; once the importer replaces its value, the parsed object is let go. */
function lazyRecord(text: string, span: Span, source: string, position: number): SourceRecord {
  let value: Record<string, unknown> | undefined;
  return {
    source,
    position,
    get value() {
      value ??= parseObjectAt(text, span, source);
      return value;
    },
    set value(v) {
      value = v;
    },
  };
}

function parseObjectAt(text: string, { start, end, keys }: Span, source: string): Record<string, unknown> {
  const slice = text.slice(start, end);
  let value: Record<string, unknown>;
  try {
    value = parseKeepingDecimals(slice) as Record<string, unknown>;
  } catch {
    // Reported against the whole text, with the line and column an editor shows.
    throw new UsageError(`${source} is not valid JSON: ${describeJsonError(text)}`);
  }
  const found = repeatedKey(slice, value, keys);
  if (found) {
    const { line, column } = lineColumn(text, start + found.offset);
    throw new UsageError(`${source} line ${line}, column ${column}: ${found.message}`);
  }
  return value;
}

/** A file name that says HL7 v2, read as HL7 whatever it holds. */
export const HL7_NAME = /\.hl7$/i;

/** How to read an input: auto by its name and content, or as one form (`--format`). */
export type InputForm = 'csv' | 'hl7' | undefined;
/** `--format`'s word as a form: auto is undefined. */
export const formOf = (format: unknown): InputForm => (format === 'csv' || format === 'hl7' ? format : undefined);

export async function readRecords(
  ctx: Ctx,
  paths: string[],
  form?: InputForm,
  columns?: ColumnMap,
): Promise<SourceRecord[]> {
  if (paths.filter((p) => p === '-').length > 1) throw new UsageError('stdin (-) can be read only once');
  const out: SourceRecord[] = [];
  for (const path of paths) {
    const { text, name } = await readText(ctx, path);
    for (const r of parseRecords(text, name, form, columns)) out.push(r);
  }
  return out;
}

/** `file record 3 (Potassium)` or `file line 7 (Potassium)`. */
export function where(r: Pick<SourceRecord, 'source' | 'position' | 'line' | 'entry'>, label?: unknown): string {
  const at =
    r.entry !== undefined ? `entry[${r.entry}]` : r.line !== undefined ? `line ${r.line}` : `record ${r.position}`;
  return `${r.source} ${at}${typeof label === 'string' && label ? ` (${label})` : ''}`;
}
