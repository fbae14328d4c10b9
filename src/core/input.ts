import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Ctx } from '../context.js';
import { UsageError } from '../errors.js';
import { describeJsonError } from '../schemas/json-error.js';

export async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads a file, or stdin for `-`, refusing what is not UTF-8 text. */
export async function readText(ctx: Ctx, path: string): Promise<{ text: string; name: string }> {
  if (path === '-') return { text: await readStream(ctx.stdin), name: 'stdin' };
  try {
    const buf = await readFile(resolve(ctx.cwd, path));
    if (buf.includes(0)) throw new UsageError(`${path} holds NUL bytes; it is not a JSON text file`);
    return { text: buf.toString('utf8'), name: path };
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `${path} does not exist` : `cannot read ${path}: ${(err as Error).message}`);
  }
}

/** Parses JSON text, naming the source, line and column of a syntax error. */
export function parseJson(text: string, name: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch {
    throw new UsageError(`${name} is not valid JSON: ${describeJsonError(body)}`);
  }
}

/** The body of create or update from --file PATH|- or --data JSON (or --data @FILE). */
export async function readBody(ctx: Ctx, opts: { file?: unknown; data?: unknown }): Promise<Record<string, unknown>> {
  if (opts.file !== undefined && opts.data !== undefined) throw new UsageError('give either --file or --data, not both');
  let value: unknown = {};
  if (typeof opts.file === 'string') {
    const { text, name } = await readText(ctx, opts.file);
    value = parseJson(text, name);
  } else if (typeof opts.data === 'string') {
    if (opts.data.startsWith('@')) {
      const { text, name } = await readText(ctx, opts.data.slice(1));
      value = parseJson(text, name);
    } else value = parseJson(opts.data, '--data');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError('the body must be a JSON object');
  return value as Record<string, unknown>;
}
