import type { Ctx } from '../context.js';
import type { Column } from './columns.js';
import { csvRow } from './formats.js';

type Rec = Record<string, unknown>;

/** Where a streamed list goes, a record at a time; `write` returns false when stdout wants a pause. */
export interface RecordSink {
  write(rec: unknown): boolean;
  end(): void;
  drained(): Promise<void>;
}

const pick = (r: unknown, fields: string[] | undefined) =>
  fields && r !== null && typeof r === 'object' && !Array.isArray(r)
    ? Object.fromEntries(fields.filter((f) => f in (r as Rec)).map((f) => [f, (r as Rec)[f]]))
    : r;

/**
 * JSON, NDJSON or CSV written as each record arrives, byte for byte what the whole-list formats write
 * (a test holds them equal), so a list of any length costs the memory of one record.
 */
export function recordSink(
  ctx: Ctx,
  format: 'json' | 'ndjson' | 'csv',
  fields: string[] | undefined,
  columns: Column[],
): RecordSink {
  let count = 0;
  const out = ctx.stdout;
  const keys = fields ?? columns.filter((c) => c.shown).map((c) => c.key);
  if (format === 'csv') out.write(`${csvRow(keys)}\r\n`);
  return {
    write(rec) {
      const r = pick(rec, fields);
      count++;
      if (format === 'ndjson') return out.write(`${JSON.stringify(r)}\n`);
      if (format === 'csv') return out.write(`${csvRow(keys.map((k) => (r as Rec)?.[k]))}\r\n`);
      const body = JSON.stringify(r, null, 2).replace(/\n/g, '\n  ');
      return out.write(`${count === 1 ? '[\n  ' : ',\n  '}${body}`);
    },
    end() {
      if (format === 'json') out.write(count === 0 ? '[]\n' : '\n]\n');
    },
    drained: () => new Promise((resolve) => out.once('drain', () => resolve())),
  };
}
