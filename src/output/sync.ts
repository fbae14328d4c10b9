import type { Ctx } from '../context.js';
import { formatRange, type RangeLike } from '../core/ranges.js';
import { where } from '../core/records.js';
import type { RecordResult, Summary } from '../core/sync/execute.js';
import type { PlanItem } from '../core/sync/plan.js';
import type { Preparation } from '../core/sync/prepare.js';
import type { Deletion } from '../core/sync/prune.js';
import { countPlan, listed } from '../core/sync/run.js';
import { chooseFormat, type PresentOptions, present } from './present.js';
import { visible } from './text.js';

// What import and apply show: notes on the input, the dry run's plan, and the summary.

/** Notes and warnings about the input, on stderr. */
export function showNotes(ctx: Ctx, prep: Preparation): void {
  if (prep.setAside.size > 0) {
    const fields = [...prep.setAside].map(([f, n]) => `${f} (${n})`).join(', ');
    ctx.stderr.write(`note: set aside fields the service sets: ${fields}; an id is still used to find the record\n`);
  }
  for (const w of listed(prep.warnings)) ctx.stderr.write(`warning: ${w}\n`);
}

const show = (v: unknown) => (v === undefined ? '(unset)' : JSON.stringify(v));

const isRange = (r: unknown) => r !== null && typeof r === 'object' && !Array.isArray(r);

/** A range as a lab admin reads it, with its id: `rr_k: 3.5–5.1 [3.5–5.1] (male, 18–65 y)`. */
const rangeText = (r: unknown) =>
  isRange(r) ? `${(r as RangeLike).id ? `${(r as RangeLike).id}: ` : ''}${formatRange(r as RangeLike)}` : show(r);

/** A list of ranges changed: only the ranges that differ, each by its place, not two whole arrays. */
function changeLines(field: string, from: unknown, to: unknown): string[] {
  if (!Array.isArray(from) || !Array.isArray(to)) return [`${field}: ${show(from)} → ${show(to)}`];
  // Ranges in the lab's short form, so that a line fits a terminal; other lists as JSON.
  const ranges = /Ranges$/.test(field) && [...from, ...to].every(isRange);
  const text = ranges ? rangeText : show;
  const out: string[] = [];
  for (let k = 0; k < Math.max(from.length, to.length); k++) {
    const a = from[k];
    const b = to[k];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    if (a === undefined) out.push(`${field}[${k}]: added ${text(b)}`);
    else if (b === undefined) out.push(`${field}[${k}]: removed ${text(a)}`);
    else out.push(`${field}[${k}]: ${text(a)} → ${text(b)}`);
  }
  return out;
}

/** The fields of `next` that differ from `current`, as diff lines (ranges one by one). */
export function diffLines(current: Record<string, unknown>, next: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [field, to] of Object.entries(next)) {
    if (JSON.stringify(current[field]) === JSON.stringify(to)) continue;
    for (const l of changeLines(field, current[field], to)) out.push(visible(`    ${l}`, true));
  }
  return out;
}

/**
 * The plan reads as a diff, in a pipe too (JSON only when asked for): what would be created, updated
 * (field by field) or refused, and one line counting what is unchanged (listed with --show-unchanged).
 */
export async function showPlan(
  ctx: Ctx,
  opts: PresentOptions & { showUnchanged?: boolean },
  items: PlanItem[],
  deletions?: Deletion[],
): Promise<void> {
  const counts = { ...countPlan(items), ...(deletions ? { delete: deletions.length } : {}) };
  if (opts.output !== undefined && opts.output !== 'table') {
    const planned: Record<string, unknown>[] = items.map((i) => ({
      source: i.rec.src.source,
      position: i.rec.src.position,
      name: i.rec.name,
      action: i.action,
      ...(i.id ? { id: i.id } : {}),
      ...(i.changes ? { changes: i.changes } : {}),
      ...(i.error ? { error: i.error } : {}),
    }));
    for (const d of deletions ?? []) planned.push({ name: d.name, action: 'delete', id: d.id });
    await present(ctx, { dryRun: true, ...counts, records: planned }, { ...opts, fields: undefined });
    return;
  }
  const { colorEnabled, theme } = await import('./theme.js');
  const t = await theme(colorEnabled(ctx, ctx.stdout, opts.color));
  const lines: string[] = [];
  for (const i of items) {
    const at = visible(where(i.rec.src, i.rec.name), true);
    if (i.action === 'create') lines.push(t.green(`+ create     ${at}`));
    else if (i.action === 'unchanged') {
      if (opts.showUnchanged) lines.push(t.dim(`= unchanged  ${at} ${i.id}`));
    } else if (i.action === 'error') lines.push(t.red(`! error      ${at}: ${visible(String(i.error), true)}`));
    else {
      lines.push(t.yellow(`~ update     ${at} ${i.id}`));
      for (const c of i.changes!)
        for (const l of changeLines(c.field, c.from, c.to)) lines.push(visible(`    ${l}`, true));
    }
  }
  for (const l of deletionLines(deletions ?? [])) lines.push(t.red(l));
  if (counts.unchanged > 0 && !opts.showUnchanged) {
    lines.push(t.dim(`= ${counts.unchanged} unchanged (--show-unchanged lists them)`));
  }
  const deleting = deletions ? `${deletions.length} to delete, ` : '';
  lines.push(
    `dry run: ${counts.create} to create, ${counts.update} to update, ${deleting}${counts.unchanged} unchanged, ` +
      `${counts.error} in error; nothing was sent`,
  );
  ctx.stdout.write(`${lines.join('\n')}\n`);
}

/** `- delete     cov_x (contract ctr_a and name Copay)`: what --prune would delete, one a line. */
export function deletionLines(deletions: Deletion[]): string[] {
  return deletions.map((d) => visible(`- delete     ${d.id} (${d.label})`, true));
}

/** Where a result came from: its place in the input, or, for a record --prune deleted, its id. */
export const placeOf = (r: RecordResult) =>
  r.source !== undefined ? where(r as Parameters<typeof where>[0], r.name) : `${r.id} (${String(r.name)})`;

const count = (n: number) => n.toLocaleString('en-US');

/** `20,000 created, 0 updated, 0 unchanged, 0 failed in 4.4 s (4,545/s)`. */
export function summarySentence(s: Summary, elapsedMs: number): string {
  const parts = [`${count(s.created)} created`, `${count(s.updated)} updated`, `${count(s.unchanged)} unchanged`];
  if (s.deleted !== undefined) parts.push(`${count(s.deleted)} deleted`);
  parts.push(`${count(s.failed)} failed`);
  if (s.interrupted) parts.push(`${count(s.notSent)} not sent`);
  const seconds = elapsedMs / 1000;
  const sent = s.records.length - s.notSent;
  const rate = seconds > 0 ? ` (${count(Math.round(sent / seconds))}/s)` : '';
  return `${parts.join(', ')} in ${seconds.toFixed(1)} s${rate}`;
}

/** Failures and an interruption on stderr; a sentence at a terminal, or the whole summary, on stdout. */
export async function showSummary(
  ctx: Ctx,
  opts: PresentOptions,
  plural: string,
  s: Summary,
  elapsedMs: number,
): Promise<void> {
  const failures = s.records.filter((r) => r.outcome === 'failed');
  for (const f of listed(failures.map((r) => `${placeOf(r)}: ${r.error}`))) {
    ctx.stderr.write(`failed: ${visible(f)}\n`);
  }
  if (s.interrupted) ctx.stderr.write(`interrupted: ${s.notSent} ${plural} were not sent\n`);
  if (['table', 'wide'].includes(chooseFormat(ctx, opts.output))) {
    ctx.stdout.write(`${summarySentence(s, elapsedMs)}\n`);
    return;
  }
  await present(ctx, s, { ...opts, fields: undefined });
}
