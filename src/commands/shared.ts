import type { Command } from 'commander';
import type { core } from 'zod';
import type { Ctx, RunF } from '../context.js';
import { AuthError, UsageError } from '../errors.js';
import type { Column } from '../output/columns.js';
import type { Resource } from '../resources/index.js';
import type { GlobalOptions, OutputOf, ShapeOf } from './options.js';
import { closest } from './suggest.js';

export type Opts = GlobalOptions & Record<string, unknown>;

/**
 * The command's options merged with the program's global ones, parsed once with zod (./options.ts):
 * each action calls this at its top, and what it returns is checked and typed. `shape` gives the
 * command's own option rules.
 */
export async function optsOf<S extends core.$ZodShape = Record<never, never>>(
  cmd: Command,
  shape?: ShapeOf<S>,
): Promise<Opts & OutputOf<S>> {
  const options = await import('./options.js');
  const parsed = options.parseOptions(cmd.optsWithGlobals(), shape?.(options)) as Opts & OutputOf<S>;
  await handOver(cmd, parsed);
  return parsed;
}

const runFs = new WeakMap<Command, RunF>();

/** Makes `runF` take the place of the run of every command of `program` (see createProgram). */
export function replaceRuns(program: Command, runF: RunF): void {
  runFs.set(program, runF);
}

/** Ends a command whose run `runF` took the place of; run() counts it a success. */
export class RunReplaced extends Error {}

/**
 * Where each action hands its parsed options to its run: to `runF` instead, when the program has one,
 * and then no further. Called by optsOf, and by serve, which has options of its own alone.
 */
export async function handOver(cmd: Command, options: Record<string, unknown>): Promise<void> {
  let root = cmd;
  const command: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) {
    if (c.parent) command.unshift(c.name());
    root = c;
  }
  const runF = runFs.get(root);
  if (!runF) return;
  await runF({ command, options, args: [...cmd.processedArgs] });
  throw new RunReplaced();
}

export const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** Example lines for the end of a command's help. */
export const examples = (...lines: string[]) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;

/** A resource's columns for present(): the table's and those of `-o wide`. */
export async function viewsOf(res: Resource): Promise<{ columns: Column[]; wide: Column[] }> {
  const { columnsOf, wideColumnsOf } = await import('../output/columns.js');
  return { columns: columnsOf(res), wide: wideColumnsOf(res) };
}

/** Connects, runs `fn` with the client, and always closes the connection pool. */
export async function withClient<T>(
  ctx: Ctx,
  opts: Opts & { connections?: number },
  fn: (c: import('./connect.js').Connection) => Promise<T>,
): Promise<T> {
  const { connect } = await import('./connect.js');
  const conn = await connect(ctx, opts);
  try {
    return await fn(conn);
  } catch (err) {
    // A refused token says where it came from: the environment, a flag, or which profile.
    const from = conn.settings.from.token;
    if (err instanceof AuthError && err.message.includes('(401)') && from) {
      throw new AuthError(`${err.message} (the token came from ${from})`, err.hint);
    }
    throw err;
  } finally {
    await conn.client.close();
  }
}

export const enc = encodeURIComponent;

/**
 * Refuses a --fields name the resource does not have, as gh does for an unknown JSON field: a typo
 * would otherwise print an empty column and look like missing data.
 */
export function checkFields(res: Resource, fields: string[] | undefined): void {
  if (!fields) return;
  const known = [
    ...Object.keys(res.fields),
    ...(res.derived ?? []).map((d) => d.key),
    ...res.wide.flatMap((w) => (typeof w === 'string' ? [] : [w.key])),
  ];
  const unknown = fields.filter((f) => !known.includes(f));
  if (unknown.length === 0) return;
  const guesses = unknown.map((f) => closest(f, known)).filter(Boolean);
  throw new UsageError(
    `unknown ${unknown.length === 1 ? 'field' : 'fields'} ${unknown.join(', ')} for --fields` +
      (guesses.length > 0 ? `; did you mean ${guesses.join(', ')}?` : ''),
    `the fields of ${res.plural}: ${known.join(', ')}`,
  );
}
