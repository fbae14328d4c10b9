import { constants } from 'node:fs';
import { type FileHandle, open, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { z } from 'zod';
import { toJSONSchema } from 'zod';
import { describeJsonError } from '../../formats/json/json-error.js';
import { recordJson } from '../../formats/json/record-json.js';
import { type Check, compile } from '../../schemas/ajv-check.js';
import { checkRange, formatPath, toFieldErrors } from '../../schemas/common.js';
import {
  COLLECTIONS,
  type CollectionName,
  DATA_FORMAT,
  type DataFile,
  dataFileSchema,
} from '../../schemas/data-file.js';
import { checkMeasure } from '../../schemas/measures.js';

/** Raised when the data file or its journal cannot be trusted; `serve` refuses to start with it. */
export class DataFileError extends Error {
  override name = 'DataFileError';
}

/**
 * The data file's real path: one file reached through a symlink or another relative path is still one
 * file, so its lock and its folds must go to the same place.
 */
export async function realDataFile(dataFile: string): Promise<string> {
  const code = (err: unknown) => (err as NodeJS.ErrnoException).code;
  try {
    return await realpath(dataFile);
  } catch (err) {
    if (code(err) !== 'ENOENT' && code(err) !== 'ENOTDIR') throw err;
  }
  // A new file: its folder must be there, as serve makes the file, not the folders above it.
  const folder = dirname(dataFile);
  const notFolder = () => new DataFileError(`${dataFile}: ${folder} is not a folder`);
  const real = await realpath(folder).catch((err) => {
    if (code(err) === 'ENOENT')
      throw new DataFileError(`${dataFile}: the folder ${folder} does not exist; make it first`);
    throw code(err) === 'ENOTDIR' ? notFolder() : err;
  });
  if (!(await stat(real)).isDirectory()) throw notFolder();
  return join(real, basename(dataFile));
}

function parseDataFile(text: string, file: string): DataFile {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let raw: unknown;
  try {
    raw = body.trim() === '' ? {} : JSON.parse(body);
  } catch {
    throw new DataFileError(`${file} is not valid JSON (${describeJsonError(body)}); fix or move it, then start again`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new DataFileError(`${file} must hold a JSON object with ${COLLECTIONS.join(', ')}`);
  }
  const version = (raw as { formatVersion?: unknown }).formatVersion;
  if (version !== undefined && version !== DATA_FORMAT) {
    const shown = JSON.stringify(version).slice(0, 40);
    throw new DataFileError(
      `${file}: formatVersion ${shown} is not one this clinadmin reads (it writes ${DATA_FORMAT}); ` +
        'a newer clinadmin wrote it, or it was edited',
    );
  }
  // The fast check vouches for a good file without copying it; any doubt, and zod reads it (and words the error).
  if (fastCheck()?.(raw)) {
    const data = raw as DataFile;
    refuseDuplicateIds(data, file);
    return data;
  }
  const parsed = dataFileSchema.safeParse(raw);
  if (!parsed.success) {
    const [first, ...rest] = toFieldErrors(parsed.error, raw);
    const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length > 1 ? 's' : ''})` : '';
    throw new DataFileError(`${file}: ${first.path}: ${first.message}${more}; fix the file, then start again`);
  }
  refuseDuplicateIds(parsed.data, file);
  return parsed.data;
}

function refuseDuplicateIds(data: DataFile, file: string): void {
  for (const name of COLLECTIONS) {
    const seen = new Set<string>();
    data[name].forEach((record, i) => {
      if (seen.has(record.id)) {
        throw new DataFileError(`${file}: ${formatPath([name, i, 'id'])}: duplicate id ${record.id}`);
      }
      seen.add(record.id);
    });
  }
}

/**
 * The rules a JSON Schema cannot hold (zod's superRefine), run as zod runs them. A test counts the
 * refinements in the data file's schemas, so one added there and not here fails it.
 */
export const REFINEMENTS = 3;
function refinementsHold(data: DataFile): boolean {
  let ok = true;
  const ctx = {
    addIssue: () => {
      ok = false;
    },
  } as unknown as z.RefinementCtx;
  for (const m of data.diagnosticMeasures) {
    checkMeasure(m, ctx);
    for (const r of m.referenceRanges ?? []) checkRange(r, ctx);
    for (const r of m.panicRanges ?? []) checkRange(r, ctx);
    if (!ok) return false;
  }
  return ok;
}

let fast: Check | null | undefined;
/** The data file's schema compiled once by ajv (see schemas/ajv-check.ts), with its refinements; null: none. */
export function fastCheck(): Check | undefined {
  if (fast === undefined) {
    let compiled: Check | undefined;
    try {
      const { $schema: _, ...json } = toJSONSchema(dataFileSchema, { io: 'input', target: 'draft-7' }) as Record<
        string,
        unknown
      >;
      compiled = compile(json);
    } catch {
      compiled = undefined;
    }
    fast = compiled ? (v) => compiled(v) && refinementsHold(v as DataFile) : null;
  }
  return fast ?? undefined;
}

/** The data file, parsed; undefined when there is none. A FIFO or device in its place is refused, not waited on. */
export async function readDataFile(file: string): Promise<DataFile | undefined> {
  let text: string;
  let fh: FileHandle | undefined;
  try {
    fh = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!(await fh.stat()).isFile()) throw new DataFileError(`${file} is not a regular file; give a JSON file`);
    text = await fh.readFile('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (err instanceof DataFileError) throw err;
    throw new DataFileError(`cannot read ${file}: ${(err as Error).message}`);
  } finally {
    await fh?.close();
  }
  return parseDataFile(text, file);
}

/** One record a line, so the file stays readable and diffable by hand while the server is stopped. */
export function serializeDataFile(data: { [K in CollectionName]: readonly unknown[] }): string {
  return Array.from(dataFileSlices(data, Number.POSITIVE_INFINITY)).join('');
}

/**
 * The same text in slices of about `size` characters (a record is never split), so a fold of 100,000
 * records writes it a slice at a time and requests run in between however large the records are.
 */
export function* dataFileSlices(data: { [K in CollectionName]: readonly unknown[] }, size: number): Generator<string> {
  yield `{\n  "formatVersion": ${DATA_FORMAT}`;
  for (const name of COLLECTIONS) {
    const records = data[name];
    const open = `,\n  "${name}": [`;
    if (records.length === 0) {
      yield `${open}]`;
      continue;
    }
    let parts: string[] = [];
    let length = 0;
    for (let i = 0; i < records.length; i++) {
      const line = `${i === 0 ? `${open}\n` : ',\n'}    ${recordJson(records[i])}`;
      parts.push(line);
      length += line.length;
      if (length >= size) {
        yield parts.join('');
        parts = [];
        length = 0;
      }
    }
    if (parts.length > 0) yield parts.join('');
    yield '\n  ]';
  }
  yield '\n}\n';
}
