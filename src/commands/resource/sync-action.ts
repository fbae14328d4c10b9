import { rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { ApiClient } from '../../api/client.js';
import type { Ctx, RunState } from '../../context.js';
import { readRecords, where } from '../../core/records.js';
import { execute, type Summary, summarize } from '../../core/sync/execute.js';
import { type PlanItem, plan } from '../../core/sync/plan.js';
import { type Preparation, prepare, type SyncSpec } from '../../core/sync/prepare.js';
import { EXIT, UsageError } from '../../errors.js';
import { chooseFormat } from '../../output/present.js';
import { zodUsageError } from '../options.js';
import type { Opts } from '../shared.js';

export interface SyncOptions {
  dryRun?: boolean;
  strict?: boolean;
  concurrency?: string;
  report?: string;
  exitCode?: boolean;
}

/** The options, checked once at the top: what the code below reads is already valid. */
const wholeNumber = 'must be a whole number from 1 to 64';
const syncOptionsSchema = z.object({
  concurrency: z.coerce
    .number({ error: wholeNumber })
    .int({ error: wholeNumber })
    .min(1, wholeNumber)
    .max(64, wholeNumber),
  dryRun: z.boolean().optional(),
  strict: z.boolean().optional(),
  exitCode: z.boolean().optional(),
  report: z.string().min(1, 'needs a file path').optional(),
});

const MAX_LISTED = 50;

function listed(lines: string[]): string[] {
  return lines.length <= MAX_LISTED
    ? lines
    : [...lines.slice(0, MAX_LISTED), `… and ${lines.length - MAX_LISTED} more`];
}

/** Validate everything, plan against the server, then send (or only show the plan): import and apply. */
export async function runSync(
  ctx: Ctx,
  opts: Opts & SyncOptions,
  spec: SyncSpec,
  files: string[],
  state: RunState,
): Promise<void> {
  const parsed = syncOptionsSchema.safeParse(opts);
  if (!parsed.success) throw zodUsageError(parsed.error, opts);
  const { concurrency } = parsed.data;
  // The server's records are fetched while the input is read and checked (a read changes nothing);
  // the answer, or its error, is looked at only once the input is valid.
  const server = fetchExisting(ctx, opts, spec, concurrency);
  server.catch(() => undefined);
  let prep: Preparation;
  try {
    const sources = await readRecords(ctx, files);
    prep = prepare(spec, sources);
    sources.length = 0;
    if (prep.setAside.size > 0) {
      const fields = [...prep.setAside].map(([f, n]) => `${f} (${n})`).join(', ');
      ctx.stderr.write(`note: set aside fields the service sets: ${fields}; an id is still used to find the record\n`);
    }
    for (const w of listed(prep.warnings)) ctx.stderr.write(`warning: ${w}\n`);
    const errors = opts.strict
      ? [...prep.errors, ...prep.warnings.map((w) => `${w} (an error with --strict)`)]
      : prep.errors;
    if (errors.length > 0) {
      const bad = new Set(errors.map((e) => e.split(': ')[0])).size;
      throw new UsageError(
        `${bad} invalid ${bad === 1 ? 'record' : 'records'}; nothing was sent`,
        undefined,
        listed(errors),
      );
    }
    if (prep.records.length === 0) throw new UsageError(`no ${spec.plural} in the input; nothing was sent`);
  } catch (err) {
    void server.then(
      ({ client }) => client.close(),
      () => undefined,
    );
    throw err;
  }

  const { client, existing } = await server;
  try {
    const items = plan(spec, prep.records, existing);
    if (opts.dryRun) {
      await showPlan(ctx, opts, spec, items);
      const changes = items.some((i) => i.action === 'create' || i.action === 'update');
      if (opts.exitCode && changes) state.exitCode = EXIT.failure;
      return;
    }
    const tty = Boolean(ctx.stderr.isTTY);
    const { progressBar } = await import('../../output/progress.js');
    const bar = tty && !opts.verbose ? progressBar(ctx.stderr, items.length, spec.plural) : undefined;
    const interrupt = ctx.waitForSignal(['SIGINT', 'SIGTERM']);
    void interrupt.promise.then(() => {
      bar?.clear();
      ctx.stderr.write('interrupted: finishing requests in flight, sending nothing more\n');
    });
    // After a Ctrl-C the handler stays until the process exits, so a second one cannot cut the summary short.
    let interrupted = false;
    void interrupt.promise.then(() => (interrupted = true));
    try {
      const outcome = await execute(items, {
        client,
        path: spec.path,
        concurrency,
        stop: interrupt.promise,
        onDone: (r, done) => {
          if (opts.verbose)
            ctx.stderr.write(
              `${r.outcome.padEnd(9)} ${r.id ?? ''} ${where(r, r.name)}${r.error ? `: ${r.error}` : ''}\n`,
            );
          bar?.update(done);
        },
      });
      bar?.clear();
      const summary = summarize(outcome.results, outcome.interrupted);
      if (opts.report) await writeReport(resolve(ctx.cwd, opts.report), summary);
      await showSummary(ctx, opts, spec, summary);
      state.exitCode = summary.interrupted ? EXIT.interrupted : summary.failed > 0 ? EXIT.failure : EXIT.ok;
    } finally {
      if (!interrupted) interrupt.cancel();
      bar?.clear();
    }
  } finally {
    await client.close();
  }
}

async function fetchExisting(
  ctx: Ctx,
  opts: Opts,
  spec: SyncSpec,
  connections: number,
): Promise<{ client: ApiClient; existing: Record<string, unknown>[] }> {
  const { connect } = await import('../connect.js');
  const { client } = await connect(ctx, { ...opts, connections });
  try {
    return {
      client,
      existing: await client.list<Record<string, unknown>>(spec.path),
    };
  } catch (err) {
    await client.close();
    throw err;
  }
}

/** Written beside, then renamed: a report is never left half-written. */
async function writeReport(path: string, summary: Summary): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(summary, null, 2)}\n`);
  await rename(tmp, path);
}

const show = (v: unknown) => (v === undefined ? '(unset)' : JSON.stringify(v));

async function showPlan(ctx: Ctx, opts: Opts, _spec: SyncSpec, items: PlanItem[]): Promise<void> {
  const counts = { create: 0, update: 0, unchanged: 0, error: 0 };
  for (const i of items) counts[i.action]++;
  // The plan reads as a diff, in a pipe too; JSON only when asked for.
  if (opts.output !== undefined && opts.output !== 'table') {
    const { present } = await import('../../output/present.js');
    const planned = items.map((i) => ({
      source: i.rec.src.source,
      position: i.rec.src.position,
      name: i.rec.name,
      action: i.action,
      ...(i.id ? { id: i.id } : {}),
      ...(i.changes ? { changes: i.changes } : {}),
      ...(i.error ? { error: i.error } : {}),
    }));
    await present(ctx, { dryRun: true, ...counts, records: planned }, { ...opts, fields: undefined });
    return;
  }
  const lines: string[] = [];
  for (const i of items) {
    const at = where(i.rec.src, i.rec.name);
    if (i.action === 'create') lines.push(`+ create     ${at}`);
    else if (i.action === 'unchanged') lines.push(`= unchanged  ${at} ${i.id}`);
    else if (i.action === 'error') lines.push(`! error      ${at}: ${i.error}`);
    else {
      lines.push(`~ update     ${at} ${i.id}`);
      for (const c of i.changes!) lines.push(`    ${c.field}: ${show(c.from)} → ${show(c.to)}`);
    }
  }
  lines.push(
    `dry run: ${counts.create} to create, ${counts.update} to update, ${counts.unchanged} unchanged, ` +
      `${counts.error} in error; nothing was sent`,
  );
  ctx.stdout.write(`${lines.join('\n')}\n`);
}

async function showSummary(ctx: Ctx, opts: Opts, spec: SyncSpec, s: Summary): Promise<void> {
  const failures = s.records.filter((r) => r.outcome === 'failed');
  for (const f of listed(failures.map((r) => `${where(r, r.name)}: ${r.error}`))) {
    ctx.stderr.write(`failed: ${f}\n`);
  }
  if (s.interrupted) ctx.stderr.write(`interrupted: ${s.notSent} ${spec.plural} were not sent\n`);
  const { present } = await import('../../output/present.js');
  if (chooseFormat(ctx, opts.output) === 'table') {
    const { textColumns } = await import('../../output/columns.js');
    const row = {
      created: s.created,
      updated: s.updated,
      unchanged: s.unchanged,
      failed: s.failed,
      ...(s.interrupted ? { 'not sent': s.notSent } : {}),
    };
    await present(ctx, [row], { ...opts, fields: undefined, columns: textColumns(Object.keys(row)) });
    return;
  }
  await present(ctx, s, { ...opts, fields: undefined });
}
