import { open, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Ctx } from '../context.js';
import { UsageError } from '../errors.js';
import type { ColumnMap } from './csv/cells.js';
import { csvRecords, NotStreamed } from './csv/stream.js';
import { MAX_INPUT_BYTES, readText } from './input.js';
import { JsonArraySplitter } from './json/array-stream.js';
import { parseKeepingDecimals } from './json/decimals.js';
import { MAX_DEPTH, repeatedKey, scanValue } from './json/json-error.js';
import { HL7_NAME, type InputForm, parseRecords, type SourceRecord } from './records.js';

const PIECE = 1 << 16;

/** Raised inside the stream when the file needs the whole-text reading, which names the fault exactly. */
class Whole extends Error {}

/** What takes each record: the check, which must be done with it before the next is read. */
type EachRecord = (record: SourceRecord) => void;

/**
 * Hands each record of the input files to `each`, in order. A file that is a JSON array (the form
 * `list -o json` writes) or NDJSON is read in 64 KB pieces into one buffer, and each record is parsed
 * only as it is handed over, so it is garbage as soon as it is checked; stdin and the other forms (one
 * object, a wrapper, a FHIR Bundle) are read whole, as readRecords does. Any fault sends the file to the
 * whole-text reading, so the error names the same line and column either way. A CSV catalog file is read
 * twice (csv/stream.ts). `pause` is awaited after each piece, for a caller whose writes fall behind.
 */
export async function forEachRecord(
  ctx: Ctx,
  paths: string[],
  each: EachRecord,
  pause?: () => Promise<void> | undefined,
  form?: InputForm,
  columns?: ColumnMap,
): Promise<void> {
  if (paths.filter((p) => p === '-').length > 1) throw new UsageError('stdin (-) can be read only once');
  for (const path of paths) {
    const sheet = form === 'csv' || (form === undefined && /\.(csv|tsv)$/i.test(path));
    if (sheet && path !== '-' && (await regularFile(ctx, path))) {
      try {
        await csvRecords(resolve(ctx.cwd, path), path, each, pause, columns);
        continue;
      } catch (err) {
        if (!(err instanceof NotStreamed)) throw err;
      }
      // Nothing was handed on: the whole-text reading names the fault.
    }
    const hl7 = form === 'hl7' || (form === undefined && HL7_NAME.test(path));
    const opens = path === '-' || sheet || hl7 ? undefined : await opening(ctx, path);
    if (opens !== undefined) {
      let done = 0;
      const counted: EachRecord = (r) => {
        each(r);
        done++;
      };
      try {
        const full = resolve(ctx.cwd, path);
        await (opens === 0x5b ? arrayRecords : ndjsonRecords)(full, path, counted, pause);
        continue;
      } catch (err) {
        if (!(err instanceof Whole)) throw err;
      }
      // The whole-text reading throws the precise error; if it finds none, it goes on where the stream stopped.
      const { text, name } = await readText(ctx, path);
      for (const r of parseRecords(text, name).slice(done)) each(r);
      continue;
    }
    const { text, name } = await readText(ctx, path);
    for (const r of parseRecords(text, name, form, columns)) each(r);
  }
}

/** A regular file within MAX_INPUT_BYTES; anything else is left to readText, which names the fault. */
async function regularFile(ctx: Ctx, path: string): Promise<boolean> {
  try {
    const s = await stat(resolve(ctx.cwd, path));
    return s.isFile() && s.size <= MAX_INPUT_BYTES;
  } catch {
    return false;
  }
}

/** The file's pieces, read into one buffer that is reused: a piece is done with before the next is read. */
async function* pieces(full: string): AsyncGenerator<Buffer> {
  const fh = await open(full, 'r');
  try {
    const buf = Buffer.allocUnsafe(PIECE);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, PIECE, null);
      if (bytesRead === 0) return;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await fh.close();
  }
}

/**
 * The file's first byte past white space and a UTF-8 byte order mark when it opens an array ([) or
 * an object ({, perhaps the first line of NDJSON); undefined for anything else, which is read whole.
 */
async function opening(ctx: Ctx, path: string): Promise<number | undefined> {
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(resolve(ctx.cwd, path), 'r');
  } catch {
    return undefined; // readText names the fault
  }
  try {
    const stat = await fh.stat();
    if (stat.size > MAX_INPUT_BYTES || !stat.isFile()) return undefined;
    const head = Buffer.alloc(4096);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
    while (i < bytesRead && (head[i] === 0x20 || head[i] === 0x0a || head[i] === 0x0d || head[i] === 0x09)) i++;
    return head[i] === 0x5b || head[i] === 0x7b ? head[i] : undefined;
  } finally {
    await fh.close();
  }
}

async function arrayRecords(
  full: string,
  source: string,
  each: EachRecord,
  pause?: () => Promise<void> | undefined,
): Promise<void> {
  const splitter = new JsonArraySplitter();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let position = 0;
  for await (const piece of pieces(full)) {
    if (piece.includes(0)) throw new Whole();
    for (const bytes of splitter.pushBytes(piece))
      each({ source, position: ++position, value: objectOf(bytes, decoder) });
    if (splitter.malformed) throw new Whole();
    await pause?.();
  }
  const end = splitter.end();
  if (!end.complete || splitter.malformed) throw new Whole();
}

/**
 * NDJSON, a line at a time. The whole-text reading takes a text as NDJSON when its first line is a whole
 * object and another line follows; until a second line comes, the first could be the one object of the
 * file (or a wrapper, or a Bundle), so it is held back, and such a file is read whole.
 */
async function ndjsonRecords(
  full: string,
  source: string,
  each: EachRecord,
  pause?: () => Promise<void> | undefined,
): Promise<void> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let held: SourceRecord | undefined;
  let position = 0;
  let line = 0;
  let carry: Buffer[] = [];
  const take = (bytes: Buffer): SourceRecord | undefined => {
    line++;
    if (bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0d)) return undefined;
    let start = 0;
    while (bytes[start] === 0x20 || bytes[start] === 0x09) start++;
    // The first line may begin with a byte order mark, which the whole-text reading drops.
    if (line === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
    return { source, position: ++position, line, value: objectOf(bytes.subarray(start), decoder, true) };
  };
  for await (const piece of pieces(full)) {
    if (piece.includes(0)) throw new Whole();
    let from = 0;
    for (let nl = piece.indexOf(10); nl >= 0; nl = piece.indexOf(10, from)) {
      const bytes = carry.length > 0 ? Buffer.concat([...carry, piece.subarray(from, nl)]) : piece.subarray(from, nl);
      carry = [];
      from = nl + 1;
      const r = take(bytes);
      if (!r) continue;
      if (r.position === 1) held = r;
      else {
        if (held) each(held);
        held = undefined;
        each(r);
      }
    }
    // The buffer is reused: a line cut by the piece's end is copied.
    if (from < piece.length) carry.push(Buffer.from(piece.subarray(from)));
    await pause?.();
  }
  const last = carry.length > 0 ? take(Buffer.concat(carry)) : undefined;
  // One object alone is not NDJSON: it may be a wrapper or a Bundle.
  if (position < 2) throw new Whole();
  if (held) each(held);
  if (last) each(last);
}

/** One element of the array (or line of NDJSON), held to the rules of the whole-text reading. */
function objectOf(bytes: Buffer, decoder: TextDecoder, line = false): Record<string, unknown> {
  if (bytes[0] !== 0x7b) throw new Whole();
  let text: string;
  let value: unknown;
  try {
    text = decoder.decode(bytes);
    value = parseKeepingDecimals(text);
  } catch {
    throw new Whole();
  }
  // One level is the array's; a line of NDJSON has the whole depth.
  const scan = scanValue(text, 0, line ? MAX_DEPTH : MAX_DEPTH - 1);
  if (scan.end === undefined || scan.tooDeepAt !== undefined || repeatedKey(text, value, scan.keys)) throw new Whole();
  return value as Record<string, unknown>;
}
