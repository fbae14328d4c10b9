import type { Ctx } from '../context.js';
import { jsonText } from '../core/number.js';
import type { ListSink } from '../formats/json/array-stream.js';
import type { Rec } from '../formats/json/record.js';
import type { Column } from './columns.js';
import { csvRow } from './formats.js';
import { chooseFormat, type PresentOptions, pick, present, selectColumns } from './present.js';
import { exact } from './terminal.js';
import { say } from './text-out.js';

const NEWLINE = Buffer.from('\n');

/** Where a streamed list goes: records gathered per piece of the answer, written at batchEnd(). */
interface RecordSink extends ListSink {
  end(): void;
}

/**
 * JSON, NDJSON or CSV written as each record arrives, byte for byte what the whole-list formats write
 * (a test holds them equal), so a list of any length costs the memory of one record.
 */
function recordSink(
  ctx: Ctx,
  format: 'json' | 'ndjson' | 'csv',
  fields: string[] | undefined,
  columns: Column[],
): RecordSink {
  let count = 0;
  // CSV keeps its bytes into a file or a pipe (a spreadsheet's data); JSON is escaped, which reads back the same.
  const out = format === 'csv' ? exact(ctx.stdout) : ctx.stdout;
  const keys = fields ?? columns.filter((c) => c.shown).map((c) => c.key);
  // One write per piece of the answer rather than per record: each write is a system call.
  let pending = format === 'csv' ? `${csvRow(keys)}\r\n` : '';
  // With raw records, the piece is gathered as bytes: the text and the views of the answer, in order.
  let parts: (string | Buffer)[] = [];
  const flush = () => {
    if (parts.length > 0) {
      if (pending !== '') parts.push(pending);
      pending = '';
      const bytes = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
      parts = [];
      return out.write(bytes);
    }
    const ok = pending === '' || out.write(pending);
    pending = '';
    return ok;
  };
  return {
    // NDJSON of whole records: a record the server sent on one line, as plain JSON, is that line.
    ...(format === 'ndjson' && !fields
      ? {
          raw(bytes: Buffer) {
            count++;
            if (pending !== '') {
              parts.push(pending);
              pending = '';
            }
            parts.push(bytes, NEWLINE);
          },
        }
      : {}),
    record(rec) {
      const r = fields ? pick(rec, fields) : rec;
      count++;
      if (format === 'ndjson') pending += `${jsonText(r)}\n`;
      else if (format === 'csv') pending += `${csvRow(keys.map((k) => (r as Rec)?.[k]))}\r\n`;
      else pending += `${count === 1 ? '[\n  ' : ',\n  '}${jsonText(r, 2).replace(/\n/g, '\n  ')}`;
    },
    batchEnd: flush,
    end() {
      if (format === 'json') pending += count === 0 ? '[]\n' : '\n]\n';
      flush();
    },
    drained: () => new Promise((resolve) => out.once('drain', () => resolve())),
  };
}

/**
 * A table (`-o table` or `-o wide`) written as the list arrives: the columns are sized from the first
 * rows, and then each piece of the answer is written as it comes (see list.ts).
 */
async function tableSink(
  ctx: Ctx,
  columns: Column[],
  o: { color?: boolean; account?: string; headers?: boolean; empty: string },
): Promise<RecordSink> {
  const [{ ListWriter }, { colorEnabled, theme }, { layoutWidth }, { droppedNote }] = await Promise.all([
    import('./list.js'),
    import('./theme.js'),
    import('./text.js'),
    import('./present.js'),
  ]);
  const t = await theme(colorEnabled(ctx, ctx.stdout, o.color));
  const width = layoutWidth(ctx.stdout, ctx.env);
  const writer = new ListWriter(ctx.stdout, columns, {
    width,
    headers: o.headers !== false,
    onDropped: droppedNote(ctx, width),
    t,
    view: { account: o.account },
  });
  let batch: Rec[] = [];
  let count = 0;
  return {
    record(rec) {
      batch.push(rec as Rec);
      count++;
    },
    batchEnd() {
      const ok = writer.add(batch);
      batch = [];
      return ok;
    },
    end() {
      if (count === 0) say(ctx, o.empty);
      else writer.end();
    },
    drained: () => new Promise((resolve) => ctx.stdout.once('drain', () => resolve())),
  };
}

/** A list's way out, whatever the format: each record as it arrives, or (YAML, --query) the whole list. */
interface ListOutput extends ListSink {
  /** Holds every record until the end (YAML, --query): the list is read within the client's cap. */
  holds: boolean;
  end(): Promise<void>;
}

/**
 * The sink a list command streams into: JSON, NDJSON and CSV written record by record, a table sized
 * from its first rows, or, for YAML and --query, the records held and presented whole at the end.
 */
export async function listOutput(
  ctx: Ctx,
  o: PresentOptions & { columns: Column[]; wide: Column[]; empty: string },
): Promise<ListOutput> {
  const format = chooseFormat(ctx, o.output);
  const streams = (sink: RecordSink): ListOutput => ({
    ...sink,
    holds: false,
    end: async () => sink.end(),
  });
  if (!o.query && (format === 'json' || format === 'ndjson' || format === 'csv'))
    return streams(recordSink(ctx, format, o.fields, o.columns));
  if (!o.query && (format === 'table' || format === 'wide')) {
    const shown = format === 'wide' && !o.fields ? o.wide : selectColumns(o.columns, o.fields, []);
    return streams(await tableSink(ctx, shown, o));
  }
  const data: unknown[] = [];
  return {
    holds: true,
    record: (r) => void data.push(r),
    batchEnd: () => true,
    drained: async () => undefined,
    end: () => present(ctx, data, o),
  };
}
