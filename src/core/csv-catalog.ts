import { parse } from 'csv-parse/sync';
import { UsageError } from '../errors.js';
import { ageIn, parseAge } from './ages.js';

// A measure catalog as a spreadsheet keeps it: one row per range, a measure's own fields beside each of its
// ranges. Written as RFC 4180 CSV with CRLF and a UTF-8 byte-order mark (Excel reads UTF-8 only with one);
// read with csv-parse, as Excel writes it: BOM, CRLF, quoted cells, `;` in most European locales (detected
// from the header line) with decimal commas.

type Rec = Record<string, unknown>;

/** A measure read from a sheet, as records.ts's SourceRecord has it (declared here: records.ts imports this). */
interface SheetRecord {
  source: string;
  position: number;
  line: number;
  value: Rec;
  cells: Record<string, string>;
}

/** The measure's own columns, named as its fields. */
const MEASURE = [
  'test',
  'name',
  'type',
  'unit',
  'siunit',
  'set',
  'sets',
  'description',
  'choices',
  'hl7IdentifierCod',
  'hl7IdentifierSys',
  'numericBreakdownMin',
  'numericBreakdownMax',
  'account',
  'facility',
  'section',
] as const;
/** One range a row: which list it belongs to, then its fields. */
const RANGE = [
  'range',
  'sex',
  'ageMin',
  'ageMax',
  'min',
  'max',
  'minPrecision',
  'maxPrecision',
  'simin',
  'simax',
  'siminPrecision',
  'simaxPrecision',
  'rangeId',
] as const;
export const CSV_COLUMNS: readonly string[] = [...MEASURE, ...RANGE];
const LISTS = new Set(['sets', 'choices']);
const AGES = new Set(['ageMin', 'ageMax']);
/** Every bound and precision of a range, and the breakdown limits, are numbers; the other cells are text. */
const NUMBERS = new Set<string>([
  'numericBreakdownMin',
  'numericBreakdownMax',
  ...RANGE.filter((c) => c !== 'range' && c !== 'sex' && c !== 'rangeId' && !AGES.has(c)),
]);
// A cell a spreadsheet would run as a formula gets a leading ' (OWASP's CSV injection advice); read back,
// one ' before such a character is taken off. Text that already starts so (`'=x`) gets one more, so the
// round trip is exact.
const FORMULA = /^[=+\-@\t\r]/;
const ESCAPED = /^'+[=+\-@\t\r]/;

/** A list joined with `|`; a `|` or `\` inside an item escaped with `\`. */
const joinList = (items: unknown[]) => items.map((i) => String(i).replace(/[\\|]/g, (c) => `\\${c}`)).join('|');

function splitList(cell: string): string[] {
  const out: string[] = [];
  let item = '';
  for (let i = 0; i < cell.length; i++) {
    if (cell[i] === '\\' && i + 1 < cell.length) item += cell[++i];
    else if (cell[i] === '|') {
      out.push(item);
      item = '';
    } else item += cell[i];
  }
  out.push(item);
  return out;
}

/** An age as the CSV writes it: years as a number, an age under a year in its unit (`72h` is `3d`). */
function ageCell(years: number): string {
  const { value, unit } = ageIn(years);
  return unit === 'a' ? String(value) : `${value}${unit}`;
}

/**
 * The catalog as CSV, measures in the order given. `delimiter` `;` also writes decimal commas, as Excel reads
 * them in the locales that use `;`.
 */
export function catalogCsv(measures: Rec[], delimiter: ',' | ';' | '\t' = ','): string {
  const cell = (v: unknown, column: string): string => {
    if (v === undefined || v === null) return '';
    let s: string;
    if (column === 'section') s = JSON.stringify(v);
    else if (LISTS.has(column) && Array.isArray(v)) s = joinList(v);
    else if (AGES.has(column) && typeof v === 'number') s = ageCell(v);
    else s = String(v);
    if (typeof v === 'number' && delimiter === ';') s = s.replace('.', ',');
    if (typeof v !== 'number' && (FORMULA.test(s) || ESCAPED.test(s))) s = `'${s}`;
    return s.includes(delimiter) || /["\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [CSV_COLUMNS.join(delimiter)];
  for (const m of measures) {
    const own = MEASURE.map((c) => cell(m[c], c));
    const ranges = [
      ...((m.referenceRanges as Rec[] | undefined) ?? []).map((r) => ['reference', r] as const),
      ...((m.panicRanges as Rec[] | undefined) ?? []).map((r) => ['panic', r] as const),
    ];
    // A list left empty is written as its field empty; an absent one too: the same cell (see the README).
    if (ranges.length === 0) lines.push([...own, ...RANGE.map(() => '')].join(delimiter));
    for (const [kind, r] of ranges) {
      const values = RANGE.map((c) => (c === 'range' ? kind : c === 'rangeId' ? cell(r.id, c) : cell(r[c], c)));
      lines.push([...own, ...values].join(delimiter));
    }
  }
  return `\ufeff${lines.join('\r\n')}\r\n`;
}

/** `;` when the header line has more of them than commas (Excel in most European locales), else `,`. */
function delimiterOf(text: string, tsv: boolean): ',' | ';' | '\t' {
  if (tsv) return '\t';
  const header = text.replace(/^\ufeff/, '').split(/\r?\n/, 1)[0] ?? '';
  const count = (c: string) => header.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/**
 * Reads a CSV catalog into one record per measure, its rows grouped by (test, name), in the order each
 * measure first appears. A measure's own field may be repeated on its rows or left empty after the first;
 * two rows that disagree are an error naming both lines. Every cell error names file:line:column (column
 * counted in fields from 1).
 */
export function parseCatalogCsv(text: string, source: string): SheetRecord[] {
  const tsv = /\.tsv$/i.test(source);
  const delimiter = delimiterOf(text, tsv);
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(text, {
      bom: true,
      delimiter,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as typeof rows;
  } catch (err) {
    const e = err as { lines?: number; message: string };
    throw new UsageError(`${source}${e.lines ? `:${e.lines}` : ''}: ${e.message}`);
  }
  if (rows.length === 0) throw new UsageError(`${source} is empty`);
  const header = rows[0].record.map((h) => h.trim());
  const columns = header.map((h, i) => {
    const known = CSV_COLUMNS.find((c) => c.toLowerCase() === h.toLowerCase());
    if (known) return known;
    const guess = CSV_COLUMNS.find((c) => c.toLowerCase().startsWith(h.toLowerCase().slice(0, 3)));
    throw new UsageError(
      `${source}:1:${i + 1}: unknown column "${h}"`,
      guess ? `did you mean ${guess}? the columns are in \`clinadmin measures import --help\`` : undefined,
    );
  });
  const errors: string[] = [];
  const measures = new Map<
    string,
    { rec: Rec; line: number; lines: Map<string, number>; cells: Record<string, string> }
  >();
  for (const { record, info } of rows.slice(1)) {
    const line = info.lines;
    const cells: Record<string, { value: string; col: number }> = {};
    columns.forEach((c, i) => {
      const raw = (record[i] ?? '').trim();
      // A cell we wrote with a leading ' to keep a spreadsheet from running it is read as the original text.
      const value = ESCAPED.test(raw) ? raw.slice(1) : raw;
      if (value !== '') cells[c] = { value, col: i + 1 };
    });
    const name = cells.name?.value;
    const at = (c: string) => `${source}:${line}:${cells[c].col}${name ? ` (${name})` : ''}`;
    const read = (c: string): unknown => {
      const { value } = cells[c];
      if (NUMBERS.has(c)) {
        const n = Number(delimiter === ';' ? value.replace(',', '.') : value);
        if (value === '' || !Number.isFinite(n)) {
          errors.push(`${at(c)}: ${c}: must be a number (got "${value}")`);
          return undefined;
        }
        return n;
      }
      if (AGES.has(c)) {
        try {
          return parseAge(delimiter === ';' ? value.replace(',', '.') : value, c);
        } catch (err) {
          errors.push(`${at(c)}: ${(err as Error).message}`);
          return undefined;
        }
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
    };
    const key = JSON.stringify([cells.test?.value ?? '', name ?? '']);
    let m = measures.get(key);
    if (!m) {
      m = { rec: {}, line, lines: new Map(), cells: {} };
      measures.set(key, m);
    }
    for (const c of MEASURE) {
      if (!cells[c]) continue;
      const value = read(c);
      if (value === undefined) continue;
      if (m.rec[c] === undefined) {
        m.rec[c] = value;
        m.lines.set(c, line);
        m.cells[c] = `${source}:${line}:${cells[c].col}`;
      } else if (JSON.stringify(m.rec[c]) !== JSON.stringify(value)) {
        errors.push(`${at(c)}: ${c}: "${cells[c].value}" differs from line ${m.lines.get(c)} of the same measure`);
      }
    }
    const kind = cells.range?.value;
    const hasRange = RANGE.some((c) => c !== 'range' && cells[c]);
    if (kind === undefined && !hasRange) continue;
    if (kind !== 'reference' && kind !== 'panic') {
      const place = kind === undefined ? `${source}:${line}` : at('range');
      errors.push(`${place}: range: must be reference or panic (got "${kind ?? ''}")`);
      continue;
    }
    const range: Rec = {};
    for (const c of RANGE) {
      if (c === 'range' || !cells[c]) continue;
      const value = read(c);
      if (value !== undefined) range[c === 'rangeId' ? 'id' : c] = value;
    }
    const list = kind === 'reference' ? 'referenceRanges' : 'panicRanges';
    const field = `${list}[${((m.rec[list] as Rec[] | undefined) ?? []).length}]`;
    const cellAt = (c: string) => `${source}:${line}:${cells[c].col}`;
    m.cells[field] = cellAt('range');
    for (const c of RANGE) if (cells[c] && c !== 'range') m.cells[`${field}.${c === 'rangeId' ? 'id' : c}`] = cellAt(c);
    m.rec[list] = [...((m.rec[list] as Rec[] | undefined) ?? []), range];
  }
  if (errors.length > 0)
    throw new UsageError(
      `${errors.length} ${errors.length === 1 ? 'error' : 'errors'} in ${source}`,
      undefined,
      errors,
    );
  return [...measures.values()].map((m, i) => ({
    source,
    position: i + 1,
    line: m.line,
    value: m.rec,
    cells: m.cells,
  }));
}
