import { parse } from 'csv-parse/sync';
import { UsageError } from '../errors.js';
import type { Rec } from '../json/record.js';
import { parseAge, parseAgeEnd } from './ages.js';
import {
  AGES,
  COLUMN_OF,
  HEADERS,
  isDecimal,
  keepPrecision,
  LIMIT_PAIRS,
  LISTS,
  NUMBERS,
  PRECISIONS,
  splitList,
} from './csv-cells.js';
import { headerKey, LIMIT_COLUMNS, MEASURE_COLUMNS as MEASURE, RANGE_COLUMNS as RANGE } from './csv-columns.js';
import { parseError, parseOptions, sheetDelimiter } from './csv-dialect.js';
import { unguardFormula } from './csv-formula.js';
import { nearest } from './nearest.js';
import { numberError, parseDecimal } from './number.js';
import { Problems } from './problems.js';
import { RANGE_KIND_WORDS, rangeKindOf, SEX_WORDS, sexOf } from './words.js';

// A measure catalog as a spreadsheet keeps it: one row per range, a measure's own fields beside each of its
// ranges. Written (csv-write.ts) as RFC 4180 CSV with CRLF and a UTF-8 byte-order mark (Excel reads UTF-8
// only with one); read with csv-parse, as Excel writes it: BOM, CRLF, quoted cells, `;` in most European
// locales (detected from the header line, csv-dialect.ts) with decimal commas.

/** A measure read from a sheet, as records.ts's SourceRecord has it (declared here: records.ts imports this). */
interface SheetRecord {
  source: string;
  position: number;
  line: number;
  value: Rec;
  cellOf: (path: string) => string | undefined;
}

/** A measure as its rows are read: its record, the line each own field came from, and each range's line. */
export interface SheetEntry {
  rec: Rec;
  line: number;
  lines: Map<string, number>;
  /** Each range's line; with the columns its fields came from where they are not named as the fields. */
  rangeLines: Record<RangeList, (number | { line: number; columns: Record<string, string> })[]>;
}

type RangeList = 'referenceRanges' | 'panicRanges';

/**
 * The rows of one sheet, read one at a time into measures grouped by (test, name): the whole-text reading
 * and the streamed one (csv-stream.ts) share it, so both give the same records and the same errors. A
 * measure's own field may be repeated on its rows or left empty after the first; two rows that disagree
 * are an error naming both lines. Every cell error names file:line:column (column counted in fields from 1).
 */
export class Sheet {
  /** Every problem of the sheet, counted; the first 50 listed (problems.ts). */
  readonly errors = new Problems();
  headerRead = false;
  /** Each known column's place in a row, from 0. */
  private at: Partial<Record<string, number>> = {};
  constructor(
    readonly source: string,
    readonly delimiter: string,
  ) {}

  /**
   * Takes the header row: a column by its field's name or a lab's word for it (`LOINC`, `Ref low`), in any
   * case; a column we do not know, or one named twice, is an error naming it, with the nearest guess.
   */
  header(record: string[]): void {
    this.headerRead = true;
    this.at = {};
    record.forEach((h, i) => {
      const name = h.trim();
      const known = COLUMN_OF.get(headerKey(name));
      const place = `${this.source}:1:${i + 1}`;
      if (known === undefined) {
        const guess = nearest(headerKey(name), HEADERS.map(headerKey));
        const shown = guess === undefined ? undefined : HEADERS.find((w) => headerKey(w) === guess);
        this.errors.push(
          `${place}: unknown column "${name.slice(0, 60)}"${shown ? `; did you mean "${shown}"?` : ''} ` +
            '(the columns are in `clinadmin help csv`)',
        );
      } else if (this.at[known] !== undefined) {
        this.errors.push(`${place}: "${name.slice(0, 60)}" is ${known} again (column ${this.at[known]! + 1})`);
      } else this.at[known] = i;
    });
  }

  /** A cell's text, trimmed; a cell we wrote with a leading ' (so no spreadsheet runs it) read as the original. */
  private cell(record: string[], column: string): string {
    const i = this.at[column];
    const raw = i === undefined ? '' : (record[i] ?? '').trim();
    return unguardFormula(raw);
  }

  /** `file:line:column` of a column's cell on a line. */
  private place(line: number, column: string): string {
    return `${this.source}:${line}:${(this.at[column] ?? 0) + 1}`;
  }

  /** The measure a row belongs to, read from its test and name cells alone. */
  key(record: string[]): string {
    return JSON.stringify([this.cell(record, 'test'), this.cell(record, 'name')]);
  }

  /** A cell's value as its field holds it, or undefined with an error noted. */
  private read(c: string, value: string, line: number, name: string): unknown {
    const semicolon = this.delimiter === ';';
    if (NUMBERS.has(c)) {
      // A `;` sheet writes decimal commas (Excel in the locales that use `;`); a precision is never negative.
      const rules = { negative: !PRECISIONS.has(c), comma: semicolon };
      const read = parseDecimal(value, rules);
      if (read !== undefined) return read;
      this.errors.push(`${this.place(line, c)}${name && ` (${name})`}: ${numberError(c, value, rules)}`);
      return undefined;
    }
    if (AGES.has(c)) {
      try {
        const text = semicolon ? value.replace(',', '.') : value;
        return c === 'ageMin' ? parseAge(text, c) : parseAgeEnd(text, c);
      } catch (err) {
        this.errors.push(`${this.place(line, c)}${name && ` (${name})`}: ${(err as Error).message}`);
        return undefined;
      }
    }
    if (c === 'sex') {
      const sex = sexOf(value);
      if (sex !== undefined) return sex;
      const guess = nearest(value, Object.keys(SEX_WORDS));
      this.errors.push(
        `${this.place(line, c)}${name && ` (${name})`}: sex: must be all, male or female (or M, F) ` +
          `(got "${value.slice(0, 40)}")${guess ? `; did you mean ${SEX_WORDS[guess]}?` : ''}`,
      );
      return undefined;
    }
    if (LISTS.has(c)) return splitList(value);
    if (c === 'section') {
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    }
    return value;
  }

  /** Reads a row into its measure in `measures` (added there on its first row); returns the measure's key. */
  add(record: string[], line: number, measures: Map<string, SheetEntry>): string {
    const name = this.cell(record, 'name');
    const key = JSON.stringify([this.cell(record, 'test'), name]);
    let m = measures.get(key);
    if (!m) {
      m = { rec: {}, line, lines: new Map(), rangeLines: { referenceRanges: [], panicRanges: [] } };
      measures.set(key, m);
    }
    for (const c of MEASURE) {
      if (this.at[c] === undefined) continue;
      const text = this.cell(record, c);
      if (text === '') continue;
      const read = this.read(c, text, line, name);
      if (read === undefined) continue;
      const value = isDecimal(read) ? read.value : read;
      if (m.rec[c] === undefined) {
        m.rec[c] = value;
        m.lines.set(c, line);
      } else if (JSON.stringify(m.rec[c]) !== JSON.stringify(value)) {
        this.errors.push(
          `${this.place(line, c)}${name && ` (${name})`}: ${c}: "${text}" differs from line ${m.lines.get(c)} ` +
            'of the same measure',
        );
      }
    }
    // The kind in a lab's words (`critical` is panic); a sheet without a range column holds reference ranges.
    const written = this.cell(record, 'range');
    const filled = (cs: readonly string[]) => cs.filter((c) => this.at[c] !== undefined && this.cell(record, c) !== '');
    const cells = filled(RANGE.filter((c) => c !== 'range'));
    const limits = filled(LIMIT_COLUMNS);
    if (written === '' && cells.length === 0 && limits.length === 0) return key;
    const kind = written === '' && this.at.range === undefined ? 'reference' : rangeKindOf(written);
    if (kind === undefined) {
      const place = written === '' ? `${this.source}:${line}` : `${this.place(line, 'range')}${name && ` (${name})`}`;
      const guess = nearest(written, Object.keys(RANGE_KIND_WORDS));
      this.errors.push(
        `${place}: range: must be reference or panic (or critical) (got "${written.slice(0, 40)}")` +
          (guess ? `; did you mean ${guess}?` : ''),
      );
      return key;
    }
    const range: Rec = {};
    for (const c of cells) {
      const text = kind === 'panic' ? this.limit(c, this.cell(record, c), line, name) : this.cell(record, c);
      const value = text === undefined ? undefined : this.read(c, text, line, name);
      if (value !== undefined) range[c === 'rangeId' ? 'id' : c] = value;
    }
    keepPrecision(range);
    const list = kind === 'reference' ? 'referenceRanges' : 'panicRanges';
    this.push(m, list, range, line);
    if (limits.length === 0) return key;
    if (kind === 'panic') {
      this.errors.push(
        `${this.place(line, limits[0])}${name && ` (${name})`}: critical limits stand on a reference row ` +
          '(a panic row holds them in min and max)',
      );
      return key;
    }
    // Critical limits beside a reference range: a panic range for the same people (FHIR's critical range).
    const panic: Rec = {};
    for (const k of ['sex', 'ageMin', 'ageMax']) if (range[k] !== undefined) panic[k] = range[k];
    const columns: Record<string, string> = {};
    for (const c of limits) {
      const text = this.limit(c, this.cell(record, c), line, name);
      const value = text === undefined ? undefined : this.read(c, text, line, name);
      const field = c === 'criticalLow' ? 'min' : 'max';
      columns[field] = c;
      if (value !== undefined) panic[field] = value;
    }
    keepPrecision(panic);
    this.push(m, 'panicRanges', panic, line, columns);
    return key;
  }

  private push(m: SheetEntry, list: RangeList, range: Rec, line: number, columns?: Record<string, string>): void {
    m.rangeLines[list].push(columns ? { line, columns } : line);
    m.rec[list] ??= [];
    (m.rec[list] as Rec[]).push(range);
  }

  /**
   * A critical limit as `help ranges` writes one: `<2.5` in a low limit's cell, `>6.5` in a high one's, read
   * as the number; the sign on the other side is an error naming the cell it belongs in.
   */
  private limit(c: string, text: string, line: number, name: string): string | undefined {
    const pair = LIMIT_PAIRS[c];
    const sign = text[0];
    if (pair === undefined || (sign !== '<' && sign !== '>')) return text;
    const rest = text.slice(1).trim();
    if ((sign === '<') === (pair[1] === 'low')) return rest;
    this.errors.push(
      `${this.place(line, c)}${name && ` (${name})`}: ${c}: "${text.slice(0, 40)}" is a critical ` +
        `${sign === '<' ? 'low' : 'high'} limit (critical ${sign === '<' ? 'below' : 'above'} ${rest.slice(0, 40)}); ` +
        `write it under ${pair[0]}`,
    );
    return undefined;
  }

  /** Throws every error found so far, as one. */
  check(): void {
    const { errors, source } = this;
    if (errors.length > 0)
      throw new UsageError(
        `${errors.length} ${errors.length === 1 ? 'error' : 'errors'} in ${source}`,
        undefined,
        errors.lines(),
      );
  }

  /** The measure as a record whose fields are named by their cells (`catalog.csv:14:9`). */
  record(m: SheetEntry, position: number): SheetRecord {
    const cellOf = (path: string): string | undefined => {
      const own = m.lines.get(path);
      if (own !== undefined) return this.place(own, path);
      const found = /^(referenceRanges|panicRanges)\[(\d+)\](?:\.(\w+))?$/.exec(path);
      if (!found) return undefined;
      const at = m.rangeLines[found[1] as RangeList][Number(found[2])];
      if (at === undefined) return undefined;
      const line = typeof at === 'number' ? at : at.line;
      const range = (m.rec[found[1]] as Rec[])[Number(found[2])];
      const column =
        (typeof at === 'number' ? undefined : at.columns[found[3]]) ?? (found[3] === 'id' ? 'rangeId' : found[3]);
      // A field the row left empty is named by the row's range cell.
      return this.place(line, column && range[found[3]] !== undefined ? column : 'range');
    };
    return { source: this.source, position, line: m.line, value: m.rec, cellOf };
  }
}

/** Reads a whole CSV catalog into one record per measure, in the order each measure first appears. */
export function parseCatalogCsv(text: string, source: string): SheetRecord[] {
  const sheet = new Sheet(source, sheetDelimiter(text, source));
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(text, parseOptions(sheet.delimiter)) as unknown as typeof rows;
  } catch (err) {
    throw parseError(err, source);
  }
  if (rows.length === 0) throw new UsageError(`${source} is empty`);
  sheet.header(rows[0].record);
  const measures = new Map<string, SheetEntry>();
  for (const { record, info } of rows.slice(1)) sheet.add(record, info.lines, measures);
  sheet.check();
  return [...measures.values()].map((m, i) => sheet.record(m, i + 1));
}
