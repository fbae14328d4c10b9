import type { Ctx } from '../context.js';
import { valueText } from '../core/number.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import type { Rec } from '../formats/json/record.js';
import { type Column, col, type View } from './columns.js';
import { toCsv, toJson, toNdjson } from './formats.js';
import { exact } from './terminal.js';
import { layoutWidth, visible } from './text.js';
import { say } from './text-out.js';
import { colorEnabled, theme } from './theme.js';

type Format = 'table' | 'wide' | 'json' | 'ndjson' | 'csv' | 'yaml';

export interface PresentOptions {
  output?: string;
  /** Parsed by the command's options: a list of field names. */
  fields?: string[];
  query?: string;
  color?: boolean;
  account?: string;
  columns?: Column[];
  /** The columns of `-o wide`, when the data has them. */
  wide?: Column[];
  /** False with --no-headers: a table without its header row, for scripts that read columns. */
  headers?: boolean;
  /** What to say on stderr when a table would be empty. */
  empty?: string;
  /** Every id fetched, when more were than are shown: a long id's prefix is unique among them. */
  ids?: Iterable<string>;
}

/** Table for a person at a terminal, JSON for a pipe. */
export function chooseFormat(ctx: Ctx, output: string | undefined): Format {
  return (output as Format | undefined) ?? (ctx.stdout.isTTY ? 'table' : 'json');
}

/** The record (or each record of a list) with only the given fields. */
export function pick(data: unknown, fields: string[]): unknown {
  const one = (r: unknown) =>
    r !== null && typeof r === 'object' && !Array.isArray(r)
      ? Object.fromEntries(fields.filter((f) => f in (r as Rec)).map((f) => [f, (r as Rec)[f]]))
      : r;
  return Array.isArray(data) ? data.map(one) : one(data);
}

async function query(data: unknown, expr: string): Promise<unknown> {
  const mod = (await import('jmespath')) as unknown as {
    search?: typeof import('jmespath').search;
    default: typeof import('jmespath');
  };
  const search = mod.search ?? mod.default.search;
  try {
    return search(data as never, expr);
  } catch (err) {
    throw new UsageError(
      `invalid --query expression: ${(err as Error).message}`,
      'see https://jmespath.org for the syntax',
    );
  }
}

const isRecordList = (d: unknown): d is Rec[] =>
  Array.isArray(d) && d.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r));

/** Hands data to the chosen format on stdout; the only place that formats command results. */
export async function present(ctx: Ctx, data: unknown, o: PresentOptions): Promise<void> {
  try {
    await format(ctx, data, o);
  } catch (err) {
    // JSON.parse reads any depth, but formatting recurses: an answer nested absurdly deep is refused.
    if (err instanceof RangeError && /call stack/i.test(err.message)) {
      throw new CliError('the API sent an answer nested too deeply to show; it was refused', EXIT.failure);
    }
    throw err;
  }
}

async function format(ctx: Ctx, data: unknown, o: PresentOptions): Promise<void> {
  const format = chooseFormat(ctx, o.output);
  const fields = o.fields;
  const view: View = { account: o.account };
  let shaped = fields ? pick(derive(data, fields, [...(o.columns ?? []), ...(o.wide ?? [])], view), fields) : data;
  if (o.query) shaped = await query(shaped, o.query);
  if (format === 'json') return void ctx.stdout.write(toJson(shaped));
  if (format === 'ndjson') return void ctx.stdout.write(toNdjson(shaped));
  // YAML and CSV keep their bytes into a file or a pipe; at a terminal they are escaped as all else.
  if (format === 'yaml') return void exact(ctx.stdout).write((await import('./yaml.js')).toYaml(shaped));
  // A derived column (SEEN, from seenBy) named in --fields was filled in as its text above: shown as such.
  const columns = selectColumns(o.columns ?? [], fields, shaped).map((c) =>
    c.field !== undefined && fields?.includes(c.key) ? { ...col(c.key, c.header), tone: c.tone } : c,
  );
  if (format === 'csv') {
    // CSV is data: by default a derived column (SEEN) is its field's value (seenBy), as stored; named in
    // --fields, it is the text asked for, filled in above.
    const keys = [...new Set(columns.map((c) => (fields ? c.key : (c.field ?? c.key))))];
    const rows = isRecordList(shaped) ? shaped : [shaped as Rec];
    return void exact(ctx.stdout).write(toCsv(rows, keys));
  }
  const t = await theme(colorEnabled(ctx, ctx.stdout, o.color));
  const width = layoutWidth(ctx.stdout, ctx.env);
  if (Array.isArray(shaped)) {
    if (shaped.length === 0) {
      say(ctx, o.empty ?? 'nothing to show');
      return;
    }
    if (!isRecordList(shaped))
      return void ctx.stdout.write(
        `${shaped.map((v) => visible(v === null ? 'null' : valueText(v), true)).join('\n')}\n`,
      );
    const { renderList } = await import('./list.js');
    const listColumns = format === 'wide' && !fields && o.wide ? o.wide : columns;
    return renderList(ctx.stdout, shaped, listColumns, {
      width,
      headers: o.headers !== false,
      t,
      view,
      onDropped: droppedNote(ctx, width),
      ...(o.ids ? { ids: o.ids } : {}),
    });
  }
  if (shaped !== null && typeof shaped === 'object') {
    const { renderDescribe } = await import('./describe.js');
    const shown = fields ? columns : (o.columns ?? []);
    return void ctx.stdout.write(await renderDescribe(shaped as Rec, shown, view, t, width));
  }
  ctx.stdout.write(`${shaped === undefined || shaped === null ? '' : visible(String(shaped))}\n`);
}

/**
 * Each record with the derived columns `fields` names (SEEN BY drawn from seenBy) set to their text, so
 * `--fields id,seenByList` has them in every format: a derived column is not a field of the record.
 */
function derive(data: unknown, fields: string[], columns: Column[], view: View): unknown {
  const derived = columns.filter((c) => c.field !== undefined && fields.includes(c.key));
  if (derived.length === 0) return data;
  const one = (r: unknown) => {
    if (r === null || typeof r !== 'object' || Array.isArray(r)) return r;
    const out: Rec = { ...(r as Rec) };
    for (const c of derived) out[c.key] = c.value(r as Rec, view);
    return out;
  };
  return Array.isArray(data) ? data.map(one) : one(data);
}

/** Says on stderr which columns a table left out for want of width (short: it must not wrap either). */
export const droppedNote = (ctx: Ctx, width: number) => (headers: string[]) =>
  ctx.stderr.write(
    `note: ${headers.length === 1 ? 'a column' : `${headers.length} columns`} left out to fit ${width}: ` +
      `${headers.join(', ')}\n`,
  );

export function selectColumns(columns: Column[], fields: string[] | undefined, data: unknown): Column[] {
  const byKey = new Map(columns.map((c) => [c.key, c]));
  const generic = (key: string): Column => col(key, key.toUpperCase());
  if (fields) return fields.map((f) => byKey.get(f) ?? generic(f));
  const shown = columns.filter((c) => c.shown);
  if (shown.length > 0) return shown;
  const keys = new Set<string>();
  for (const r of isRecordList(data) ? data : [data as Rec]) for (const k of Object.keys(r ?? {})) keys.add(k);
  return [...keys].map(generic);
}
