import { nearest } from '../../core/nearest.js';
import { keepFirst, listed, type ReadProblem } from '../../core/problems.js';
import { RANGE_KIND_WORDS, rangeKindOf } from '../../core/words.js';
import { UsageError } from '../../errors.js';
import type { Rec } from '../json/record.js';
import { fillRangeCell, limitText, readCell } from './cell-read.js';
import { COLUMN_OF, type ColumnMap, HEADERS, isDecimal, keepPrecision, type SheetRecord } from './cells.js';
import {
  headerKey,
  LIMIT_COLUMNS,
  MEASURE_COLUMNS as MEASURE,
  RANGE_COLUMNS as RANGE,
  RANGE_CELL,
  SHEET_WITHOUT_TEST,
} from './columns.js';
import { parseWhole, sheetDelimiter } from './dialect.js';
import { unguardFormula } from './formula.js';
import { type LeftOut, leftOutOfRanges, type RowRead, rowLosses } from './left-out.js';
import { newEntry, pushRange, type RangeList, type SheetEntry } from './sheet-entry.js';

// A measure catalog as a spreadsheet keeps it: one row per range, a measure's own fields beside each of its
// ranges. Written (csv/write.ts) as RFC 4180 CSV with CRLF and a UTF-8 byte-order mark (Excel reads UTF-8
// only with one); read with csv-parse, as Excel writes it: BOM, CRLF, quoted cells, `;` in most European
// locales (detected from the header line, csv/dialect.ts) with decimal commas.

/** Headers that name the code's system as well as the code: LOINC's own (HL7 table 0396's LN). */
const LOINC_HEADERS = ['loinc', 'loinccode'];

/**
 * The rows of one sheet, read one at a time into measures grouped by (test, name): the whole-text reading
 * and the streamed one (csv/stream.ts) share it, so both give the same records and the same errors. A
 * measure's own field may be repeated on its rows or left empty after the first; two rows that disagree
 * are an error naming both lines. Every cell error names file:line:column (column counted in fields from 1)
 * and stays with the measure of its row, which the checker then holds invalid beside whatever else it
 * finds in it (sync/prepare.ts): one run lists every problem of the sheet, as tsc and eslint do.
 */
export class Sheet {
  /** The header's problems (a column we do not know, or one named twice): the first record carries them. */
  headerProblems: ReadProblem[] = [];
  private leftOut: LeftOut[] = [];
  headerRead = false;
  /** Whether the header names the name column a measure's rows are found by (with test's, where it has one). */
  keyed = false;
  /** The measure whose row is being read, which takes the row's cell errors. */
  private current: SheetEntry | undefined;
  /** Each known column's place in a row, from 0. */
  private at: Partial<Record<string, number>> = {};
  /** The code system a code column's header names (`LOINC`: LN) where no column gives one. */
  private impliedSystem: string | undefined;
  constructor(
    readonly source: string,
    readonly delimiter: string,
    /** --column: headers read as another field, or left out. */
    readonly columns?: ColumnMap,
  ) {}

  /**
   * Takes the header row: a column by its field's name or a lab's word for it (`LOINC`, `Ref low`), in any
   * case; a column we do not know, or one named twice, is an error naming it, with the nearest guess.
   */
  header(record: string[], line = 1): void {
    this.headerRead = true;
    this.at = {};
    this.headerProblems = [];
    record.forEach((h, i) => {
      const name = h.trim();
      const mapped = this.columns?.field(name);
      if (mapped === null) return;
      const known = mapped ?? COLUMN_OF.get(headerKey(name));
      const place = `${this.source}:${line}:${i + 1}`;
      if (known === undefined) {
        const guess = nearest(headerKey(name), HEADERS.map(headerKey));
        const shown = guess === undefined ? undefined : HEADERS.find((w) => headerKey(w) === guess);
        this.headerProblems.push({
          text:
            `${place}: unknown column "${name.slice(0, 60)}"${shown ? `; did you mean "${shown}"?` : ''} ` +
            '(the columns are in `clinadmin help csv`); its cells are not read',
          line,
          column: i + 1,
        });
      } else if (this.at[known] !== undefined) {
        const text = `${place}: "${name.slice(0, 60)}" is ${known} again (column ${this.at[known]! + 1})`;
        this.headerProblems.push({ text, line, column: i + 1 });
      } else this.at[known] = i;
    });
    this.headerProblems.push(...(this.columns?.unmatched(record, `${this.source}:${line}`, line) ?? []));
    this.leftOut = leftOutOfRanges(record, this.columns);
    // Without a test column, a row's measure is found by its name, and its test comes from --test.
    this.keyed = this.at.name !== undefined;
    const code = this.at.hl7IdentifierCod;
    const loinc = code !== undefined && LOINC_HEADERS.includes(headerKey(record[code].trim()));
    this.impliedSystem = loinc && this.at.hl7IdentifierSys === undefined ? 'LN' : undefined;
  }

  /** A cell's error, kept with the measure of the row being read: `file:line:column (name): …`. */
  private fault(line: number, c: string | undefined, name: string, message: string): void {
    const m = this.current!;
    const at = c === undefined ? `${this.source}:${line}` : this.place(line, c);
    m.more += keepFirst(m.problems, {
      text: `${at}${name && ` (${name})`}: ${message}`,
      line,
      column: c === undefined ? 0 : (this.at[c] ?? 0) + 1,
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
    return readCell(c, value, this.delimiter === ';', (message) => this.fault(line, c, name, message));
  }

  /** Reads a row into its measure in `measures` (added there on its first row); returns the measure's key. */
  add(record: string[], line: number, measures: Map<string, SheetEntry>): string {
    const name = this.cell(record, 'name');
    const key = JSON.stringify([this.cell(record, 'test'), name]);
    let m = measures.get(key);
    if (!m) {
      m = newEntry(line);
      measures.set(key, m);
    }
    this.current = m;
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
        this.fault(line, c, name, `${c}: "${text}" differs from line ${m.lines.get(c)} of the same measure`);
      }
    }
    if (this.impliedSystem && m.rec.hl7IdentifierCod !== undefined) m.rec.hl7IdentifierSys ??= this.impliedSystem;
    const read = this.rangesOf(record, line, m, name);
    if (this.leftOut.length === 0) return key;
    const context = { source: this.source, line, name, ...this.rowOf(m) };
    for (const w of rowLosses(this.leftOut, record, read, context)) m.moreWarnings += keepFirst(m.warnings, w);
    return key;
  }

  /** The unit and the delimiter a range cell is read with. */
  private rowOf(m: SheetEntry) {
    return { semicolon: this.delimiter === ';', unit: m.rec.unit, unitColumn: this.at.unit !== undefined };
  }

  /** Reads a row's ranges into its measure: its kind, the ranges of that kind and the critical limits beside. */
  private rangesOf(record: string[], line: number, m: SheetEntry, name: string): RowRead {
    // The kind in a lab's words (`critical` is panic); a sheet without a range column holds reference ranges.
    const written = this.cell(record, 'range');
    const filled = (cs: readonly string[]) => cs.filter((c) => this.at[c] !== undefined && this.cell(record, c) !== '');
    const cells = filled(RANGE.filter((c) => c !== 'range'));
    const limits = filled(LIMIT_COLUMNS);
    const whole = filled([RANGE_CELL]).length > 0 ? this.cell(record, RANGE_CELL) : '';
    if (written === '' && cells.length === 0 && limits.length === 0 && whole === '') return { main: [] };
    const kind = written === '' && this.at.range === undefined ? 'reference' : rangeKindOf(written);
    if (kind === undefined) {
      const guess = nearest(written, Object.keys(RANGE_KIND_WORDS));
      const message = `range: must be reference or panic (or critical) (got "${written.slice(0, 40)}")`;
      const near = guess ? `; did you mean ${guess}?` : '';
      this.fault(line, written === '' ? undefined : 'range', written === '' ? '' : name, message + near);
      return { main: [] };
    }
    const range: Rec = {};
    const faults = () => m.problems.length + m.more;
    const before = faults();
    for (const c of cells) {
      const text = kind === 'panic' ? this.limit(c, this.cell(record, c), line, name) : this.cell(record, c);
      const value = text === undefined ? undefined : this.read(c, text, line, name);
      if (value !== undefined) range[c === 'rangeId' ? 'id' : c] = value;
    }
    const fault = (message: string) => this.fault(line, RANGE_CELL, name, message);
    const row = { kind, ...this.rowOf(m) };
    const ranges = whole === '' ? [range] : fillRangeCell(range, whole, row, fault);
    const list = kind === 'reference' ? 'referenceRanges' : 'panicRanges';
    for (const one of ranges) {
      keepPrecision(one);
      pushRange(m, list, one, line, faults() > before);
    }
    if (limits.length === 0) return { kind, main: ranges };
    if (kind === 'panic') {
      const where = 'critical limits stand on a reference row (a panic row holds them in min and max)';
      this.fault(line, limits[0], name, where);
      return { kind, main: ranges };
    }
    // Critical limits beside a reference range: a panic range for the same people (FHIR's critical range).
    const panic: Rec = {};
    for (const k of ['sex', 'ageMin', 'ageMax']) if (range[k] !== undefined) panic[k] = range[k];
    const columns: Record<string, string> = {};
    const limitsBefore = faults();
    for (const c of limits) {
      const text = this.limit(c, this.cell(record, c), line, name);
      const value = text === undefined ? undefined : this.read(c, text, line, name);
      const field = c === 'criticalLow' ? 'min' : 'max';
      columns[field] = c;
      if (value !== undefined) panic[field] = value;
    }
    keepPrecision(panic);
    pushRange(m, 'panicRanges', panic, line, faults() > limitsBefore, columns);
    return { kind, main: ranges, limits: panic };
  }

  private limit(c: string, text: string, line: number, name: string): string | undefined {
    return limitText(c, text, (message) => this.fault(line, c, name, message));
  }

  /**
   * Throws the header's problems alone when the rows cannot be read past them: the sheet has no rows, or
   * no name column to find a row's measure by (every row would fall into one measure). Otherwise
   * they come with the first record, beside every other problem of the sheet.
   */
  checkHeader(rows: number): void {
    const p = this.headerProblems;
    if (p.length === 0 || (rows > 0 && this.keyed)) return;
    throw new UsageError(
      `${p.length} ${p.length === 1 ? 'error' : 'errors'} in ${this.source}`,
      rows > 0 ? "a row's measure is found by its name cell (and test's): the rows are read once there is one" : '',
      listed(p.map((x) => x.text)),
    );
  }

  /** The measure as a record whose fields are named by their cells (`catalog.csv:14:9`), with its rows' errors. */
  record(m: SheetEntry, position: number): SheetRecord {
    const cellAt = (line: number, column: string) => ({
      place: this.place(line, column),
      line,
      column: (this.at[column] ?? 0) + 1,
    });
    const cellOf = (path: string) => {
      const own = m.lines.get(path);
      if (own !== undefined) return cellAt(own, path);
      const found = /^(referenceRanges|panicRanges)\[(\d+)\](?:\.(\w+))?$/.exec(path);
      if (!found) return undefined;
      const at = m.rangeLines[found[1] as RangeList][Number(found[2])];
      if (at === undefined) return undefined;
      const line = typeof at === 'number' ? at : at.line;
      const range = (m.rec[found[1]] as Rec[])[Number(found[2])];
      const column =
        (typeof at === 'number' ? undefined : at.columns[found[3]]) ?? (found[3] === 'id' ? 'rangeId' : found[3]);
      // A field the row left empty is named by the row's range cell.
      return cellAt(line, column && range[found[3]] !== undefined ? column : 'range');
    };
    if (this.at.test === undefined) (m.rec as Record<symbol, unknown>)[SHEET_WITHOUT_TEST] = true;
    const record: SheetRecord = { source: this.source, position, line: m.line, value: m.rec, cellOf, carrier: 'csv' };
    if (m.problems.length > 0) Object.assign(record, { problems: m.problems, moreProblems: m.more, unread: m.unread });
    if (position === 1 && this.headerProblems.length > 0) record.fileProblems = this.headerProblems;
    if (m.warnings.length > 0) Object.assign(record, { warnings: m.warnings, moreWarnings: m.moreWarnings });
    return record;
  }
}

/** Reads a whole CSV catalog into one record per measure, in the order each measure first appears. */
export function parseCatalogCsv(text: string, source: string, columns?: ColumnMap): SheetRecord[] {
  const sheet = new Sheet(source, sheetDelimiter(text, source), columns);
  const { rows, starts } = parseWhole(text, sheet.delimiter, source);
  if (rows.length === 0) throw new UsageError(`${source} is empty`);
  sheet.header(rows[0], starts[0]);
  const measures = new Map<string, SheetEntry>();
  sheet.checkHeader(rows.length - 1);
  for (let i = 1; i < rows.length; i++) sheet.add(rows[i], starts[i], measures);
  return [...measures.values()].map((m, i) => sheet.record(m, i + 1));
}
