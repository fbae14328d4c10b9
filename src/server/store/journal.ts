import type { FileHandle } from 'node:fs/promises';
import { OwnFileError, openOwnFile } from '../../files/own-file.js';
import { recordJson } from '../../formats/json/record-json.js';
import { toFieldErrors } from '../../schemas/common.js';
import { COLLECTIONS, type CollectionName, dataFileSchema } from '../../schemas/data-file.js';
import { DataFileError } from './data-file.js';
import { RECORD_SCHEMAS, type StoredRecord } from './records.js';

/** One change, or a reset: every collection's records replaced at once. */
export type JournalEntry =
  | { coll: CollectionName; id: string; after: StoredRecord | undefined }
  | { reset: { [K in CollectionName]: StoredRecord[] } };

interface Replay {
  entries: JournalEntry[];
  /** Bytes up to the end of the last whole line: what the journal is cut back to before new appends. */
  goodLength: number;
}

const CHUNK = 1024 * 1024;

/**
 * Replays `<file>.journal` a line at a time, so a journal of any size that was written can be read back.
 * Each line is checked against the collection's schema; a torn last line (never acknowledged) is dropped
 * with a warning; damage anywhere else refuses, naming the line. Nothing past `limit` bytes is read (the
 * cut mark's length: see cut-mark.ts).
 */
export async function readJournal(path: string, warn: (m: string) => void, limit = Infinity): Promise<Replay> {
  let fh: FileHandle | undefined;
  try {
    fh = await openOwnFile(path, 'read');
  } catch (err) {
    if (err instanceof OwnFileError) throw err;
    throw new DataFileError(`cannot read ${path}: ${(err as Error).message}`);
  }
  if (!fh) return { entries: [], goodLength: 0 };
  const entries: JournalEntry[] = [];
  let goodLength = 0;
  let lineNo = 0;
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let pieces: Buffer[] = [];
    let position = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(CHUNK, limit - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      let start = 0;
      for (let nl = buf.indexOf(10, 0); nl !== -1 && nl < bytesRead; nl = buf.indexOf(10, start)) {
        pieces.push(buf.subarray(start, nl));
        const line = pieces.length === 1 ? pieces[0].toString('utf8') : Buffer.concat(pieces).toString('utf8');
        pieces = [];
        lineNo++;
        entries.push(parseLine(line, lineNo, path));
        goodLength = position - bytesRead + nl + 1;
        start = nl + 1;
      }
      // The rest of this chunk belongs to a line that continues: keep a copy, the buffer is reused.
      if (start < bytesRead) pieces.push(Buffer.from(buf.subarray(start, bytesRead)));
    }
    if (Number.isFinite(limit) && (await fh.stat()).size > limit) {
      warn(`dropped what ${path} holds past byte ${limit}: changes answered 503 whose cut-back had failed`);
    } else if (pieces.length > 0) {
      warn(`dropped a torn last line of ${path} left by a crash (that change was never acknowledged)`);
    }
  } finally {
    await fh.close();
  }
  return { entries, goodLength };
}

function parseLine(line: string, lineNo: number, path: string): JournalEntry {
  const damaged = (why: string) =>
    new DataFileError(`${path} line ${lineNo} ${why}; the data cannot be trusted, so the server will not start`);
  let entry: { c?: unknown; id?: unknown; v?: unknown; reset?: unknown };
  try {
    entry = JSON.parse(line);
  } catch {
    throw damaged('is damaged');
  }
  if (entry?.reset !== undefined) {
    // A sandbox reset: the whole state, checked as the data file is.
    const checked = dataFileSchema.safeParse(entry.reset);
    if (!checked.success) {
      const [first] = toFieldErrors(checked.error, entry.reset);
      throw damaged(`holds a reset that is not a valid state (${first.path}: ${first.message})`);
    }
    return { reset: entry.reset as { [K in CollectionName]: StoredRecord[] } };
  }
  const coll = entry?.c as CollectionName;
  if (!COLLECTIONS.includes(coll) || typeof entry.id !== 'string') throw damaged('is damaged');
  if (entry.v === null) return { coll, id: entry.id, after: undefined };
  const checked = RECORD_SCHEMAS[coll].safeParse(entry.v);
  if (!checked.success) {
    const [first] = toFieldErrors(checked.error, entry.v);
    throw damaged(`does not hold a valid ${coll} record (${first.path}: ${first.message})`);
  }
  if ((entry.v as StoredRecord).id !== entry.id)
    throw damaged(`names id ${entry.id} but holds record ${(entry.v as StoredRecord).id}`);
  // The record as written (zod's defaults filled in would change what the next fold writes).
  return { coll, id: entry.id, after: entry.v as StoredRecord };
}

// Writing: the two line forms readJournal reads back, so the format lives in this one module.

/** The journal's line for a change, as JSON.stringify({ c, id, v }) would write it, with v's JSON reused. */
export function journalLine(c: { coll: CollectionName; id: string; after: StoredRecord | undefined }): string {
  const value = c.after === undefined ? 'null' : recordJson(c.after);
  return `{"c":${JSON.stringify(c.coll)},"id":${JSON.stringify(c.id)},"v":${value}}`;
}

/**
 * A reset as one journal line: `{"reset":{…every collection…}}`, replayed as the whole state. A sandbox
 * keeps it beside each snapshot, so a reset costs a write, not a serialisation.
 */
export function resetLine(state: { [K in CollectionName]: StoredRecord[] }): string {
  const collections = COLLECTIONS.map((n) => `${JSON.stringify(n)}:[${(state[n] ?? []).map(recordJson).join(',')}]`);
  return `{"reset":{${collections.join(',')}}}`;
}
