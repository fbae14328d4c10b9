import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { UsageError } from '../../errors.js';
import { hashOf } from '../../strings.js';
import type { SourceRecord } from '../records.js';
import { Sheet } from './catalog.js';
import type { ColumnMap } from './cells.js';
import { parseError, parseOptions, rowLines, sheetDelimiter } from './dialect.js';
import type { SheetEntry } from './sheet-entry.js';

const PIECE = 1 << 16;

/** Raised in the first reading when the file needs the whole-text reading, which names the fault exactly. */
export class NotStreamed extends Error {}

/**
 * A CSV catalog file read twice, so that memory holds the measures' keys and not the sheet: the first
 * reading finds each measure's last row, the second assembles each measure and hands it on once its last
 * row is read, in the order measures first appear (a measure waits only for those begun before it). A
 * measure is handed on with its rows' cell errors (the first with the header's too), for the checker to
 * list beside what else it finds; only a header the rows cannot be read past is thrown at once.
 * A file that is not UTF-8 text or that csv-parse refuses raises NotStreamed before any record is handed on.
 */
export async function csvRecords(
  full: string,
  source: string,
  each: (record: SourceRecord) => void,
  pause?: () => Promise<void> | undefined,
  columns?: ColumnMap,
): Promise<void> {
  const sheet = new Sheet(source, sheetDelimiter(await headOf(full), source), columns);
  // By the key's hash, so 100,000 keys take a few MB: two keys that share one only keep the first of them
  // waiting until the end, when whatever still waits is handed on in order.
  const last = new Map<number, number>();
  let rows = 0;
  await readRows(full, sheet, true, undefined, rowLines(), (record) => {
    last.set(hashOf(sheet.key(record)), rows++);
  }).catch((err) => {
    throw err instanceof UsageError ? err : new NotStreamed();
  });
  if (!sheet.headerRead) throw new UsageError(`${source} is empty`);
  sheet.checkHeader(rows);

  const pending = new Map<string, SheetEntry & { done?: boolean }>();
  let row = 0;
  let position = 0;
  const lines = rowLines();
  await readRows(full, sheet, false, pause, lines, (record, line) => {
    const key = sheet.add(record, line, pending);
    if (last.get(hashOf(key)) === row++) pending.get(key)!.done = true;
    for (const [k, m] of pending) {
      if (!m.done) break;
      pending.delete(k);
      each(sheet.record(m, ++position));
    }
  }).catch((err) => {
    throw err instanceof UsageError ? err : parseError(err, source, lines);
  });
  if (row !== rows) throw new UsageError(`${source} changed while it was read; import it again`);
  for (const m of pending.values()) each(sheet.record(m, ++position));
}

/** The file's first piece, as text, for the delimiter. */
async function headOf(full: string): Promise<string> {
  const fh = await open(full, 'r');
  try {
    const buf = Buffer.alloc(PIECE);
    const { bytesRead } = await fh.read(buf, 0, PIECE, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
}

/**
 * Streams the file through csv-parse, the header row to the sheet and each data row to `onRow` as the
 * parser reads it (its on_record hook, so no row waits in a stream's buffer), awaiting `pause` after each
 * piece (for a caller whose writes fall behind). With `validate`, the bytes are first held to readText's
 * rules (UTF-8, no NUL, not UTF-16), so a fault goes to the whole-text reading.
 */
async function readRows(
  full: string,
  sheet: Sheet,
  validate: boolean,
  pause: (() => Promise<void> | undefined) | undefined,
  lines: ReturnType<typeof rowLines>,
  onRow: (record: string[], line: number) => void,
): Promise<void> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let first = true;
  let header = true;
  await pipeline(
    createReadStream(full, { highWaterMark: PIECE }),
    async function* (source: AsyncIterable<Buffer>) {
      for await (const piece of source) {
        if (validate) {
          if (first && piece.length >= 2 && (piece[0] === 0xff || piece[0] === 0xfe)) throw new NotStreamed();
          if (piece.includes(0)) throw new NotStreamed();
          decoder.decode(piece, { stream: true });
        }
        first = false;
        yield piece;
        await pause?.();
      }
      if (validate) decoder.decode();
    },
    parse({
      ...parseOptions(sheet.delimiter),
      on_record: (record: string[], info: { empty_lines: number; comment_lines?: number }) => {
        const line = lines.start(record, info);
        if (header) sheet.header(record, line);
        else onRow(record, line);
        header = false;
        return null;
      },
    }),
    // on_record keeps every row, so nothing comes out of the parser.
    async (rows: AsyncIterable<unknown>) => {
      for await (const _ of rows);
    },
  );
}
