import type { ApiClient } from '../../api/client.js';
import { ApiError, CliError, EXIT } from '../../errors.js';
import type { SourceRecord } from '../../formats/records.js';
import { type Counts, type RecordResult, type Tally, unsentWords } from './execute.js';
import type { Existing } from './existing.js';
import { fetchExisting, wholeWhereChanged } from './holdings.js';
import type { PlanItem } from './plan.js';
import type { Checker, SyncSpec } from './prepare.js';
import { type Deletion, pruneList } from './prune.js';
import { type Checked, checkedRecords, checkInput, type PlanCounts, planned, sendPlan, spoolProblem } from './run.js';

// Import and apply, whole: check the input, fetch what the server holds, plan, then show the plan or send
// it and prune. What a person sees goes through the view (output/sync-view.ts draws it); what the run came to
// is returned, and the command turns it into an exit code.

/** What the import shows as it goes: output/sync-view.ts draws it on the terminal or as JSON. */
export interface SyncView {
  /** The input is checked: its notes and warnings. */
  checked(checker: Checker): void;
  /** Something worth a word that stops nothing. */
  warning(text: string): void;
  /** --dry-run: the plan and what --prune would delete, drawn as the plan is made; returns its counts. */
  planned(plan: AsyncIterable<PlanItem[]>, deletions: Deletion[] | undefined): Promise<PlanCounts>;
  /** --prune without --yes: asks once for all the deletions; false sends nothing. */
  confirm(deletions: Deletion[], baseUrl: string): Promise<boolean>;
  /** Sending begins: `total` records and deletions to go. */
  sending(total: number): void;
  /** One record sent or deleted, the `done`th. */
  sent(r: RecordResult, done: number): void;
  /** Ctrl-C: requests in flight finish, nothing more is sent. */
  interrupted(): void;
  /** Sending is over, or was cut short by an error: the progress goes. */
  stopped(): void;
  /** The outcome of every record, once all is sent: written from the tally's spool. */
  summary(tally: Tally, elapsedMs: number): Promise<void>;
}

/** What an import is given once its options are parsed. */
interface SyncInput {
  /** Hands over the input's records one at a time; `pause` is waited on when the spool falls behind. */
  read: (each: (record: SourceRecord) => void, pause: () => Promise<void> | undefined) => Promise<void>;
  strict: boolean;
  dryRun: boolean;
  prune: boolean;
  /** Delete without asking (--yes). */
  yes: boolean;
  concurrency: number;
  /** --timeout in milliseconds, for the sentence when it passes. */
  deadlineMs?: number;
  /** Resolves on Ctrl-C; cancel() lets go of the signals. */
  interrupt: () => { promise: Promise<unknown>; cancel: () => void };
}

/** What an import came to: a dry run's plan, or the counts of what was sent. */
export type SyncResult =
  | { dryRun: true; plan: PlanCounts; deleting: number | undefined }
  | { dryRun: false; counts: Counts };

/** Import and apply: check, fetch what exists, plan, then show the plan or send it and prune. */
export async function runImport(
  spec: SyncSpec,
  input: SyncInput,
  connect: () => Promise<ApiClient>,
  view: SyncView,
): Promise<SyncResult> {
  let checkDone!: (ok: boolean) => void;
  const checkedOk = new Promise<boolean>((resolve) => {
    checkDone = resolve;
  });
  const server = fetchExisting(connect, spec, checkedOk, (w) => view.warning(w));
  server.catch(() => undefined);
  let checked: Checked;
  try {
    checked = await checkInput(spec, input.read, input.strict);
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
    view.checked(checked.checker);
    const { client, found } = await server;
    try {
      await wholeWhereChanged(client, spec, checked, found);
      const { checker } = checked;
      const deletions = input.prune
        ? await pruneList(spec, checkedRecords(checked.spool), checker.scopes, checker.named, found, client)
        : undefined;
      if (input.dryRun) {
        const plan = await view
          .planned(planned(spec, checked, found), deletions)
          .catch((err) => Promise.reject(spoolProblem(err)));
        return { dryRun: true, plan, deleting: deletions?.length };
      }
      if (deletions && deletions.length > 0 && !input.yes && !(await view.confirm(deletions, client.baseUrl)))
        throw new CliError('nothing was sent or deleted', EXIT.usage);
      return { dryRun: false, counts: await sendAll(spec, input, checked, found, client, deletions, view) };
    } finally {
      await client.close();
    }
  } finally {
    await checked.spool.close();
  }
}

/** Sends the plan and the deletions, then the summary; throws when --timeout passed, after the summary. */
async function sendAll(
  spec: SyncSpec,
  input: SyncInput,
  checked: Checked,
  found: Existing,
  client: ApiClient,
  deletions: Deletion[] | undefined,
  view: SyncView,
): Promise<Counts> {
  view.sending(checked.spool.count + (deletions?.length ?? 0));
  const interrupt = input.interrupt();
  // After a Ctrl-C the handler stays until the process exits, so a second one cannot cut the summary short.
  let interrupted = false;
  void interrupt.promise.then(() => {
    interrupted = true;
    view.interrupted();
  });
  const started = performance.now();
  try {
    const tally = await sendPlan(checked, found, {
      client,
      spec,
      concurrency: input.concurrency,
      stop: interrupt.promise,
      deletions,
      onDone: (r, done) => view.sent(r, done),
    });
    try {
      view.stopped();
      await view.summary(tally, performance.now() - started).catch((err) => Promise.reject(spoolProblem(err, true)));
      const s = tally.counts;
      // One sentence for the deadline, after the summary, rather than one failure for each record left.
      if (s.timedOut) {
        throw new ApiError(
          `the command did not finish within --timeout ${(input.deadlineMs ?? 0) / 1000} s: ` +
            // Nothing left to send still leaves the requests the deadline cut, whose outcome is unknown.
            (s.notSent > 0
              ? unsentWords(s.notSent, spec)
              : 'what was in flight is listed as failed, its outcome unknown'),
          undefined,
          [],
          'raise --timeout, or leave it out: then each request alone has 30 s',
        );
      }
      return { ...s };
    } finally {
      await tally.records.close();
    }
  } finally {
    if (!interrupted) interrupt.cancel();
    view.stopped();
  }
}
