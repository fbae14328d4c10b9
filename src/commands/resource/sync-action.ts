import { resolve } from 'node:path';
import type { ApiClient } from '../../api/client.js';
import type { Ctx, RunState } from '../../context.js';
import { readRecords, where } from '../../core/records.js';
import { plan } from '../../core/sync/plan.js';
import type { Preparation, SyncSpec } from '../../core/sync/prepare.js';
import { checkInput, send } from '../../core/sync/run.js';
import { EXIT } from '../../errors.js';
import { writeFileAtomic } from '../../files/atomic.js';
import type { Opts } from '../shared.js';
import type { SyncOptions } from './sync-options.js';

/** import and apply, their options parsed (sync-options.ts): check the input and plan (core/sync), show or send. */
export async function runSync(
  ctx: Ctx,
  o: SyncOptions,
  spec: SyncSpec,
  files: string[],
  state: RunState,
): Promise<void> {
  const opts = o;
  const show = await import('../../output/sync.js');
  // The server's records are fetched while the input is read and checked (a read changes nothing);
  // the answer, or its error, is looked at only once the input is valid.
  const server = fetchExisting(ctx, opts, spec, o.concurrency);
  server.catch(() => undefined);
  let prep: Preparation;
  try {
    const sources = await readRecords(ctx, files);
    prep = checkInput(spec, sources, Boolean(o.strict));
    sources.length = 0;
    show.showNotes(ctx, prep);
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
    if (o.dryRun) {
      await show.showPlan(ctx, opts, items);
      // As the real run would exit: 1 when a record is in error; --exit-code also 1 for changes (drift).
      const changes = items.some((i) => i.action === 'create' || i.action === 'update');
      const errors = items.some((i) => i.action === 'error');
      if (errors || (o.exitCode && changes)) state.exitCode = EXIT.failure;
      return;
    }
    const { progressBar } = await import('../../output/progress.js');
    const bar = ctx.stderr.isTTY && !opts.verbose ? progressBar(ctx.stderr, items.length, spec.plural) : undefined;
    const interrupt = ctx.waitForSignal(['SIGINT', 'SIGTERM']);
    // After a Ctrl-C the handler stays until the process exits, so a second one cannot cut the summary short.
    let interrupted = false;
    void interrupt.promise.then(() => {
      interrupted = true;
      bar?.clear();
      ctx.stderr.write('interrupted: finishing requests in flight, sending nothing more\n');
    });
    const started = performance.now();
    try {
      const summary = await send(items, {
        client,
        spec,
        concurrency: o.concurrency,
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
      if (o.report) await writeFileAtomic(resolve(ctx.cwd, o.report), `${JSON.stringify(summary, null, 2)}\n`);
      await show.showSummary(ctx, opts, spec.plural, summary, performance.now() - started);
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
    return { client, existing: await client.list<Record<string, unknown>>(spec.path) };
  } catch (err) {
    await client.close();
    throw err;
  }
}
