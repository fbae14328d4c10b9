import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Ctx } from '../context.js';
import { UsageError } from '../errors.js';
import { JsonArraySplitter } from '../json/array-stream.js';
import { MAX_DEPTH, repeatedKey, scanValue } from '../json/json-error.js';
import { MAX_INPUT_BYTES, readText } from './input.js';
import { parseRecords, type SourceRecord } from './records.js';

const PIECE = 1 << 16;

/** Raised inside the stream when the file needs the whole-text reading, which names the fault exactly. */
class Whole extends Error {}

/**
 * The records of the input files one at a time. A file that is a JSON array (the form `list -o json`
 * writes) is read in 64 KB pieces and never held whole; stdin and the other forms (NDJSON, one object, a
 * wrapper, a FHIR Bundle) are read whole, as readRecords does. Any fault in an array sends the file to
 * the whole-text reading, so the error names the same line and column either way.
 */
export async function* streamRecords(ctx: Ctx, paths: string[]): AsyncGenerator<SourceRecord> {
  if (paths.filter((p) => p === '-').length > 1) throw new UsageError('stdin (-) can be read only once');
  for (const path of paths) {
    if (path !== '-' && (await opensArray(ctx, path))) {
      let done = 0;
      try {
        for await (const r of arrayRecords(resolve(ctx.cwd, path), path)) {
          done++;
          yield r;
        }
        continue;
      } catch (err) {
        if (!(err instanceof Whole)) throw err;
      }
      // The whole-text reading throws the precise error; if it finds none, it goes on where the stream stopped.
      const { text, name } = await readText(ctx, path);
      const rest = parseRecords(text, name);
      for (let i = done; i < rest.length; i++) yield rest[i];
      continue;
    }
    const { text, name } = await readText(ctx, path);
    yield* parseRecords(text, name);
  }
}

/** Whether the file's first byte past white space and a UTF-8 byte order mark opens an array. */
async function opensArray(ctx: Ctx, path: string): Promise<boolean> {
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(resolve(ctx.cwd, path), 'r');
  } catch {
    return false; // readText names the fault
  }
  try {
    const stat = await fh.stat();
    if (stat.size > MAX_INPUT_BYTES || !stat.isFile()) return false;
    const head = Buffer.alloc(4096);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
    while (i < bytesRead && (head[i] === 0x20 || head[i] === 0x0a || head[i] === 0x0d || head[i] === 0x09)) i++;
    return head[i] === 0x5b;
  } finally {
    await fh.close();
  }
}

async function* arrayRecords(full: string, source: string): AsyncGenerator<SourceRecord> {
  const splitter = new JsonArraySplitter();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let position = 0;
  for await (const chunk of createReadStream(full, { highWaterMark: PIECE })) {
    const piece = chunk as Buffer;
    if (piece.includes(0)) throw new Whole();
    for (const bytes of splitter.pushBytes(piece)) {
      position++;
      yield { source, position, value: objectOf(bytes, decoder) };
    }
    if (splitter.malformed) throw new Whole();
  }
  const end = splitter.end();
  if (!end.complete || splitter.malformed) throw new Whole();
}

/** One element of the array, held to the rules of the whole-text reading (records.ts parseObjectAt). */
function objectOf(bytes: Buffer, decoder: TextDecoder): Record<string, unknown> {
  if (bytes[0] !== 0x7b) throw new Whole();
  let text: string;
  let value: unknown;
  try {
    text = decoder.decode(bytes);
    value = JSON.parse(text);
  } catch {
    throw new Whole();
  }
  // One level is the array's.
  const scan = scanValue(text, 0, MAX_DEPTH - 1);
  if (scan.end === undefined || scan.tooDeepAt !== undefined || repeatedKey(text, value, scan.keys)) throw new Whole();
  return value as Record<string, unknown>;
}
