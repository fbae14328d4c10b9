import { resolve } from 'node:path';
import type { ApiClient } from '../../api/client.js';
import type { Ctx, RunState } from '../../context.js';
import { listed } from '../../core/problems.js';
import type { Tally } from '../../core/sync/execute.js';
import { Existing } from '../../core/sync/existing.js';
import type { SyncSpec } from '../../core/sync/prepare.js';
import { type Deletion, pruneList } from '../../core/sync/prune.js';
import {
  type Checked,
  checkedRecords,
  checkInput,
  planned,
  send,
  spoolProblem,
  wholeWhereChanged,
} from '../../core/sync/run.js';
import { ApiError, CliError, DeadlineError, EXIT, UsageError } from '../../errors.js';
import { writeFileAtomic } from '../../files/atomic.js';
import { columnMap } from '../../formats/csv/cells.js';
import { forEachRecord } from '../../formats/record-stream.js';
import { formOf } from '../../formats/records.js';
import { progressBar } from '../../output/progress.js';
import { prompter } from '../../output/prompts.js';
import * as show from '../../output/sync.js';
import { visible } from '../../output/text.js';
import { connect } from '../connect.js';
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
  // Deleting without asking is refused before anything is read or sent, as `delete` refuses.
  if (o.prune && !o.dryRun && !o.yes && !ctx.isInteractive) {
    throw new UsageError(
      `refusing to --prune without --yes: no terminal to confirm the deletions at; nothing was sent`,
      `add --yes to delete without asking, or --dry-run to see what would be deleted`,
    );
  }
  // The list of the server's records is asked for at once (connecting while the heap is small), but read
  // only once the input is checked: reading both at once holds both in memory at the same time.
  let checkDone!: (ok: boolean) => void;
  const checkedOk = new Promise<boolean>((resolve) => {
    checkDone = resolve;
  });
  const server = fetchExisting(ctx, opts, spec, o.concurrency, checkedOk);
  server.catch(() => undefined);
  let checked: Checked;
  try {
    checked = await checkInput(
      spec,
      (each, pause) => forEachRecord(ctx, files, each, pause, formOf(o.format), columnMap(o.column)),
      Boolean(o.strict),
    );
  } catch (err) {
    checkDone(false);
    void server.then(
      ({ client }) => client.close(),
      () => undefined,
    );
    throw err;
  }
  checkDone(true);
  try {
    show.showNotes(ctx, checked.checker);
    const { client, found } = await server;
    try {
      await wholeWhereChanged(client, spec, checked, found);
      const deletions = o.prune
        ? await pruneList(
            spec,
            checkedRecords(checked.spool),
            checked.checker.scopes,
            checked.checker.named,
            found,
            client,
          )
        : undefined;
      if (o.dryRun) {
        const counts = await show
          .showPlan(ctx, opts, planned(spec, checked, found), deletions)
          .catch((err) => Promise.reject(spoolProblem(err)));
        // As the real run would exit: 1 when a record is in error; --exit-code also 1 for changes (drift).
        const changes = counts.create > 0 || counts.update > 0 || !!deletions?.length;
        if (counts.error > 0 || (o.exitCode && changes)) state.exitCode = EXIT.failure;
        return;
      }
      if (deletions && deletions.length > 0 && !o.yes) await confirmDeletions(ctx, spec, deletions, client.baseUrl);
      state.exitCode = await sendAll(ctx, o, spec, checked, found, client, deletions);
    } finally {
      await client.close();
    }
  } finally {
    await checked.spool.close();
  }
}

/** Sends with a progress bar (or verbose lines), then shows and reports the summary; returns the exit code. */
async function sendAll(
  ctx: Ctx,
  o: SyncOptions,
  spec: SyncSpec,
  checked: Checked,
  found: Existing,
  client: ApiClient,
  deletions: Deletion[] | undefined,
): Promise<number> {
  const total = checked.spool.count + (deletions?.length ?? 0);
  const bar = ctx.stderr.isTTY && !o.verbose ? progressBar(ctx.stderr, total, spec.plural) : undefined;
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
    const tally = await send(checked, found, {
      client,
      spec,
      concurrency: o.concurrency,
      stop: interrupt.promise,
      deletions,
      onDone: (r, done) => {
        if (o.verbose) ctx.stderr.write(`${show.recordLine(r)}\n`);
        bar?.update(done);
      },
    });
    try {
      bar?.clear();
      await report(ctx, o, spec.plural, tally, performance.now() - started).catch((err) =>
        Promise.reject(spoolProblem(err, true)),
      );
      const s = tally.counts;
      // One sentence for the deadline, after the summary, rather than one failure for each record left.
      if (s.timedOut) {
        throw new ApiError(
          `the command did not finish within --timeout ${(o.deadline?.ms ?? 0) / 1000} s: ` +
            `${s.notSent} ${spec.plural} were not sent`,
          undefined,
          [],
          'raise --timeout, or leave it out: then each request alone has 30 s',
        );
      }
      return s.interrupted ? EXIT.interrupted : s.failed > 0 ? EXIT.failure : EXIT.ok;
    } finally {
      await tally.records.close();
    }
  } finally {
    if (!interrupted) interrupt.cancel();
    bar?.clear();
  }
}

/** The report file, then the summary: both written from the tally's spool. */
async function report(ctx: Ctx, o: SyncOptions, plural: string, tally: Tally, elapsedMs: number): Promise<void> {
  if (o.report)
    await writeFileAtomic(resolve(ctx.cwd, o.report), show.documentText({ ...tally.counts }, tally.records, 'json'));
  await show.showSummary(ctx, o, plural, tally, elapsedMs);
}

async function fetchExisting(
  ctx: Ctx,
  opts: Opts,
  spec: SyncSpec,
  connections: number,
  checkedOk: Promise<boolean>,
): Promise<{ client: ApiClient; found: Existing }> {
  const { client } = await connect(ctx, { ...opts, connections });
  // Each record as a digest of its fields, let go as it is read (existing.ts); the answer waits at its
  // first piece until the input is checked.
  const read = async (gate: Promise<boolean> | undefined) => {
    const found = new Existing(spec);
    let open = gate === undefined;
    await client.stream(spec.path, {
      record: (r) => found.add(r as Record<string, unknown>),
      batchEnd: () => open,
      drained: async () => {
        await gate;
        open = true;
      },
    });
    return found;
  };
  try {
    try {
      return { client, found: await read(checkedOk) };
    } catch (err) {
      // An answer cut off (a proxy may drop one that waited) is asked for once more, now read at once: its
      // records went only into `found`, which starts again, so nothing is counted twice.
      if (!(err instanceof ApiError) || err instanceof DeadlineError || err.status !== undefined) throw err;
      if (!(await checkedOk)) throw err;
      // Said before the second answer is read, so a second failure is read beside the first one's reason.
      const first = visible(err.message, true);
      ctx.stderr.write(`warning: the first answer to GET ${spec.path} failed (${first}); asking once more\n`);
      return { client, found: await read(undefined) };
    }
  } catch (err) {
    await client.close();
    throw err;
  }
}

/** At a terminal, --prune without --yes lists what it would delete and asks once for all of it. */
async function confirmDeletions(ctx: Ctx, spec: SyncSpec, deletions: Deletion[], baseUrl: string): Promise<void> {
  ctx.stderr.write(`${listed(show.deletionLines(deletions)).join('\n')}\n`);
  const what = `${deletions.length} ${deletions.length === 1 ? spec.noun : spec.plural}`;
  const scope = spec.scope ? ` of the ${spec.scope}s in the file that it does not list` : '';
  const ok = await (await prompter(ctx)).confirm(`Delete ${what}${scope}, on ${baseUrl}?`, false);
  if (!ok) throw new CliError('nothing was sent or deleted', EXIT.usage);
}
