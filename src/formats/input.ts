import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Ctx } from '../context.js';
import { UsageError } from '../errors.js';
import { parseKeepingDecimals } from './json/decimals.js';
import { describeJsonError, findAmbiguity, lineColumn } from './json/json-error.js';

/** Input files larger than this are refused rather than read into memory. */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024;

/** Everything a stream (stdin) holds, refused once it passes MAX_INPUT_BYTES. */
async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > MAX_INPUT_BYTES)
      throw new UsageError(`stdin is larger than ${MAX_INPUT_BYTES / 2 ** 20} MiB; split the input`);
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

export async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  return (await readAll(stream)).toString('utf8');
}

async function readBytes(ctx: Ctx, path: string): Promise<Buffer> {
  if (path === '-') return readAll(ctx.stdin);
  const full = resolve(ctx.cwd, path);
  try {
    if ((await stat(full)).size > MAX_INPUT_BYTES)
      throw new UsageError(`${path} is larger than ${MAX_INPUT_BYTES / 2 ** 20} MiB; split it`);
    return await readFile(full);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT' ? `${path} does not exist` : `cannot read ${path}: ${(err as Error).message}`,
    );
  }
}

/** Reads a file, or stdin for `-`, refusing what is not UTF-8 text: no byte is silently replaced. */
export async function readText(ctx: Ctx, path: string): Promise<{ text: string; name: string }> {
  const name = path === '-' ? 'stdin' : path;
  const buf = await readBytes(ctx, path);
  if (buf.length >= 2 && ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff))) {
    throw new UsageError(`${name} is UTF-16 text; save it as UTF-8`);
  }
  if (buf.includes(0)) throw new UsageError(`${name} holds NUL bytes; it is not a JSON text file`);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(buf), name };
  } catch {
    const text = buf.toString('utf8');
    const at = text.indexOf('\uFFFD');
    const { line, column } = lineColumn(text, at);
    throw new UsageError(`${name} is not UTF-8 text (line ${line}, column ${column}); save it as UTF-8`);
  }
}

/** Parses JSON text, naming the source, line and column of a syntax error. */
export function parseJson(text: string, name: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = parseKeepingDecimals(body);
  } catch {
    throw new UsageError(`${name} is not valid JSON: ${describeJsonError(body)}`);
  }
  refuseAmbiguity(body, value, name);
  return value;
}

/** Duplicate keys and absurd nesting are refused by position rather than guessed at. */
export function refuseAmbiguity(text: string, parsed: unknown, name: string, prefix = ''): void {
  const found = findAmbiguity(text, parsed);
  if (!found) return;
  const { line, column } = lineColumn(text, found.offset);
  throw new UsageError(`${name} ${prefix}line ${line}, column ${column}: ${found.message}`);
}

/** A `--data` value: JSON text, or @FILE (@- for stdin). */
export async function readJsonArg(ctx: Ctx, value: string, name = '--data'): Promise<unknown> {
  if (!value.startsWith('@')) return parseJson(value, name);
  const { text, name: source } = await readText(ctx, value.slice(1));
  return parseJson(text, source);
}

/** The body of create or update from --file PATH|- or --data JSON (or --data @FILE). */
export async function readBody(ctx: Ctx, opts: { file?: unknown; data?: unknown }): Promise<Record<string, unknown>> {
  if (opts.file !== undefined && opts.data !== undefined)
    throw new UsageError('give either --file or --data, not both');
  let value: unknown = {};
  if (typeof opts.file === 'string') {
    const { text, name } = await readText(ctx, opts.file);
    value = parseJson(text, name);
  } else if (typeof opts.data === 'string') {
    value = await readJsonArg(ctx, opts.data);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new UsageError('the body must be a JSON object');
  return value as Record<string, unknown>;
}
