import { readFile } from 'node:fs/promises';
import { describeJsonError } from '../json/json-error.js';
import { formatPath, toFieldErrors } from '../schemas/common.js';
import { COLLECTIONS, type CollectionName, type DataFile, dataFileSchema } from '../schemas/data-file.js';
import { recordJson } from './record-json.js';

/** Raised when the data file or its journal cannot be trusted; `serve` refuses to start with it. */
export class DataFileError extends Error {
  override name = 'DataFileError';
}

export function parseDataFile(text: string, file: string): DataFile {
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
  const parsed = dataFileSchema.safeParse(raw);
  if (!parsed.success) {
    const [first, ...rest] = toFieldErrors(parsed.error, raw);
    const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length > 1 ? 's' : ''})` : '';
    throw new DataFileError(`${file}: ${first.path}: ${first.message}${more}; fix the file, then start again`);
  }
  for (const name of COLLECTIONS) {
    const seen = new Set<string>();
    parsed.data[name].forEach((record, i) => {
      if (seen.has(record.id)) {
        throw new DataFileError(`${file}: ${formatPath([name, i, 'id'])}: duplicate id ${record.id}`);
      }
      seen.add(record.id);
    });
  }
  return parsed.data;
}

export async function readDataFile(file: string): Promise<DataFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DataFileError(`cannot read ${file}: ${(err as Error).message}`);
  }
  return parseDataFile(text, file);
}

/** One record a line, so the file stays readable and diffable by hand while the server is stopped. */
export function serializeDataFile(data: { [K in CollectionName]: Iterable<unknown> }): string {
  const parts = COLLECTIONS.map((name) => {
    const lines = Array.from(data[name], (r) => `    ${recordJson(r)}`);
    return lines.length === 0 ? `  "${name}": []` : `  "${name}": [\n${lines.join(',\n')}\n  ]`;
  });
  return `{\n${parts.join(',\n')}\n}\n`;
}
