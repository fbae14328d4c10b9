import type { Ctx } from '../context.js';
import { jsonText } from '../core/number.js';
import { listed } from '../core/problems.js';
import { type Counts, type RecordResult, type Tally, unsentWords } from '../core/sync/execute.js';
import type { PlanItem } from '../core/sync/plan.js';
import type { Checker } from '../core/sync/prepare.js';
import type { Deletion } from '../core/sync/prune.js';
import type { PlanCounts } from '../core/sync/run.js';
import { jsonLines, Spool } from '../files/spool.js';
import { where } from '../formats/records.js';
import { changeLines } from './diff-lines.js';
import { chooseFormat, type PresentOptions, present } from './present.js';
import { visible } from './text.js';
import { writeOut } from './text-out.js';

// What import and apply show: notes on the input, the dry run's plan (its diff lines in diff-lines.ts), and
// the summary.

/** Notes and warnings about the input, on stderr. */
export function showNotes(ctx: Ctx, checked: Checker): void {
  if (checked.serviceFieldsLeftOut.size > 0) {
    const fields = [...checked.serviceFieldsLeftOut].map(([f, n]) => `${f} (${n})`).join(', ');
    ctx.stderr.write(`note: set aside fields the service sets: ${fields}; an id is still used to find the record\n`);
  }
  for (const w of listed(checked.warnings, checked.warningCount)) ctx.stderr.write(`warning: ${visible(w, true)}\n`);
}

/**
 * The plan reads as a diff, in a pipe too (JSON only when asked for): what would be created, updated
 * (field by field) or refused, and one line counting what is unchanged (listed with --show-unchanged).
 * It is written as the plan is read; JSON goes through a spool, as its counts come first.
 */
export async function showPlan(
  ctx: Ctx,
  opts: PresentOptions & { showUnchanged?: boolean },
  batches: AsyncIterable<PlanItem[]>,
  deletions?: Deletion[],
): Promise<PlanCounts> {
  const counts: PlanCounts = { create: 0, update: 0, unchanged: 0, error: 0 };
  const deleting = deletions ? { delete: deletions.length } : {};
  if (opts.output !== undefined && opts.output !== 'table') {
    const spool = new Spool(jsonLines<Record<string, unknown>>());
    try {
      for await (const batch of batches) {
        for (const i of batch) {
          counts[i.action]++;
          const planned = {
            source: i.rec.src.source,
            position: i.rec.src.position,
            name: i.rec.name,
            action: i.action,
            ...(i.id ? { id: i.id } : {}),
            ...(i.changes ? { changes: i.changes } : {}),
            ...(i.error ? { error: i.error } : {}),
          };
          spool.push(planned, 300);
        }
        if (spool.backlog > 4 << 20) await spool.settled();
      }
      for (const d of deletions ?? []) spool.push({ name: d.name, action: 'delete', id: d.id }, 100);
      await showDocument(ctx, opts, { dryRun: true, ...counts, ...deleting }, spool);
    } finally {
      await spool.close();
    }
    return counts;
  }
  const { colorEnabled, theme } = await import('./theme.js');
  const t = await theme(colorEnabled(ctx, ctx.stdout, opts.color));
  const out = writer(ctx);
  for await (const batch of batches)
    for (const i of batch) {
      counts[i.action]++;
      const at = visible(where(i.rec.src, i.rec.name), true);
      if (i.action === 'create') await out.line(t.green(`+ create     ${at}`));
      else if (i.action === 'unchanged') {
        if (opts.showUnchanged) await out.line(t.dim(`= unchanged  ${at} ${i.id}`));
      } else if (i.action === 'error') await out.line(t.red(`! error      ${at}: ${visible(String(i.error), true)}`));
      else {
        await out.line(t.yellow(`~ update     ${at} ${i.id}`));
        for (const c of i.changes!)
          for (const l of changeLines(c.field, c.from, c.to)) await out.line(visible(`    ${l}`, true));
      }
    }
  for (const l of deletionLines(deletions ?? [])) await out.line(t.red(l));
  if (counts.unchanged > 0 && !opts.showUnchanged) {
    await out.line(t.dim(`= ${counts.unchanged} unchanged (--show-unchanged lists them)`));
  }
  const toDelete = deletions ? `${deletions.length} to delete, ` : '';
  await out.line(
    `dry run: ${counts.create} to create, ${counts.update} to update, ${toDelete}${counts.unchanged} unchanged, ` +
      `${counts.error} in error; nothing was sent`,
  );
  await out.end();
  return counts;
}

/** Writes to stdout, waiting when the reader falls behind. */
const put = writeOut;

/** Lines to stdout in pieces of about 64 KB. */
function writer(ctx: Ctx) {
  let pending = '';
  const flush = async () => {
    const text = pending;
    pending = '';
    await put(ctx, text);
  };
  return {
    async line(text: string) {
      pending += `${text}\n`;
      if (pending.length >= 1 << 16) await flush();
    },
    end: flush,
  };
}

/**
 * An object whose `records` are lines of JSON in a spool, in pieces of about 64 KB, byte for byte as
 * `JSON.stringify(object, null, 2)` (or, for NDJSON, `JSON.stringify(object)` and a newline) writes it.
 */
export async function* documentText(
  head: Record<string, unknown>,
  records: Spool<unknown>,
  format: 'json' | 'ndjson',
): AsyncGenerator<string> {
  const pretty = format === 'json';
  const open = pretty ? JSON.stringify(head, null, 2).slice(0, -2) : JSON.stringify(head).slice(0, -1);
  let text = `${open}${pretty ? ',\n  "records": [' : ',"records":['}`;
  let first = true;
  for await (const batch of records.batches())
    for (const item of batch) {
      if (pretty) text += `${first ? '' : ','}\n    ${jsonText(item, 2).replace(/\n/g, '\n    ')}`;
      else text += `${first ? '' : ','}${jsonText(item)}`;
      first = false;
      // Under V8's large-object size (128 KB), so each piece dies young.
      if (text.length >= 1 << 16) {
        yield text;
        text = '';
      }
    }
  yield `${text}${pretty ? (first ? ']\n}\n' : '\n  ]\n}\n') : ']}\n'}`;
}

/** JSON and NDJSON are written from the spool; the other forms (and --query) hold the whole object. */
async function showDocument(ctx: Ctx, opts: PresentOptions, head: Record<string, unknown>, records: Spool<unknown>) {
  const format = chooseFormat(ctx, opts.output);
  if ((format === 'json' || format === 'ndjson') && !opts.query) {
    for await (const text of documentText(head, records, format)) await put(ctx, text);
    return;
  }
  const all: unknown[] = [];
  for await (const batch of records.batches()) all.push(...batch);
  await present(ctx, { ...head, records: all }, { ...opts, fields: undefined });
}

/** `- delete     cov_x (contract ctr_a and name Copay)`: what --prune would delete, one a line. */
export function deletionLines(deletions: Deletion[]): string[] {
  return deletions.map((d) => visible(`- delete     ${d.id} (${d.label})`, true));
}

/** Where a result came from: its place in the input, or, for a record --prune deleted, its id. */
/** One -v line of a record sent: `created msr_1 catalog.json:3 (Potassium)`; the server's words escaped. */
export function recordLine(r: RecordResult): string {
  const id = r.source !== undefined && r.id ? `${r.id} ` : '';
  return visible(`${r.outcome.padEnd(9)} ${id}${placeOf(r)}${r.error ? `: ${r.error}` : ''}`, true);
}

const placeOf = (r: RecordResult) =>
  r.source !== undefined ? where(r as Parameters<typeof where>[0], r.name) : `${r.id} (${String(r.name)})`;

const count = (n: number) => n.toLocaleString('en-US');

/** `20,000 created, 0 updated, 0 unchanged, 0 failed in 4.4 s (4,545/s)`. */
function summarySentence(s: Counts, sent: number, elapsedMs: number): string {
  const parts = [`${count(s.created)} created`, `${count(s.updated)} updated`, `${count(s.unchanged)} unchanged`];
  if (s.deleted !== undefined) parts.push(`${count(s.deleted)} deleted`);
  parts.push(`${count(s.failed)} failed`);
  if (s.interrupted || s.timedOut) parts.push(`${count(s.notSent)} not sent`);
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? ` (${count(Math.round(sent / seconds))}/s)` : '';
  return `${parts.join(', ')} in ${seconds.toFixed(1)} s${rate}`;
}

/**
 * Failures and an interruption on stderr; a sentence at a terminal, or the whole summary (the counts,
 * then every record's outcome, in the input's order) on stdout.
 */
export async function showSummary(
  ctx: Ctx,
  opts: PresentOptions,
  words: { noun: string; plural: string },
  tally: Tally,
  elapsedMs: number,
): Promise<void> {
  const s = tally.counts;
  for (const f of listed(
    tally.failures.map((r) => `${placeOf(r)}: ${r.error}`),
    s.failed,
  )) {
    ctx.stderr.write(`failed: ${visible(f)}\n`);
  }
  if (s.interrupted) ctx.stderr.write(`interrupted: ${unsentWords(s.notSent, words)}\n`);
  if (['table', 'wide'].includes(chooseFormat(ctx, opts.output))) {
    ctx.stdout.write(`${summarySentence(s, tally.sent, elapsedMs)}\n`);
    return;
  }
  await showDocument(ctx, opts, { ...s }, tally.records);
}
