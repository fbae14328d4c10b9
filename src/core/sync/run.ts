import type { ApiClient } from '../../api/client.js';
import { CliError, EXIT, UsageError } from '../../errors.js';
import { jsonLines, Spool, SpoolError } from '../../files/spool.js';
import type { SourceRecord } from '../../formats/records.js';
import { MAX_LISTED, mixed } from '../problems.js';
import { execute, type RecordResult, Tally } from './execute.js';
import type { Existing } from './existing.js';
import { type PlanItem, planOne } from './plan.js';
import { Checker, type Prepared, type SyncSpec } from './prepare.js';
import { type Deletion, removeAll } from './prune.js';
import { fromLine, toLine } from './spool-line.js';

// The import's steps, each returning data: check the input into a spool, plan, send. pipeline.ts runs them
// in order.

/** A spool that failed, as the sentence a user can act on; any other error as it is. */
export function spoolProblem(err: unknown, sending = false): unknown {
  if (!(err instanceof SpoolError)) return err;
  const again = sending ? '; a second run sends only what is missing' : '';
  const problem = new CliError(
    `${err.message}${sending ? '' : '; nothing was sent'}`,
    EXIT.failure,
    `set TMPDIR to a folder with room for about the size of the input${again}`,
  );
  return Object.assign(problem, { cause: err });
}

/** The input, checked: its records in a spool, in order, and what the whole input needs kept. */
export interface Checked {
  spool: Spool<Prepared>;
  checker: Checker;
}

/** The checked records, read back from the spool in their order, a batch at a time. */
export const checkedRecords = (spool: Spool<Prepared>): AsyncGenerator<Prepared[]> => spool.batches();

/**
 * Validates every record before anything is sent, one at a time as `read` hands them over, keeping each
 * in a spool (memory, then disk); throws a
 * usage error that lists each invalid one (with --strict, lint warnings count as errors too).
 */
export async function checkInput(
  spec: SyncSpec,
  read: (each: (record: SourceRecord) => void, pause: () => Promise<void> | undefined) => Promise<void>,
  strict: boolean,
): Promise<Checked> {
  const checker = new Checker(spec, MAX_LISTED + 1);
  const spool = new Spool<Prepared>({ encode: toLine, decode: fromLine });
  try {
    await read(
      (src) => {
        const p = checker.check(src);
        if (p) spool.push(p, p.json.length + 100);
      },
      // Text not yet on disk waits at 1 MB: more, held while the check runs ahead, only raises the peak.
      () => (spool.backlog > 1 << 20 ? spool.settled() : undefined),
    );
    await spool.settled();
    if (checker.unsettled) await checker.settle(checkedRecords(spool));
    const bad = strict ? checker.flagged : checker.invalid;
    const files = checker.fileErrors;
    if (bad > 0 || files > 0) {
      // Every problem of the input in its order, the warnings beside the errors (with --strict, errors too).
      const mark = strict ? (w: string) => `${w} (an error with --strict)` : (w: string) => `warning: ${w}`;
      const what = [
        ...(bad > 0 ? [`${bad} invalid ${bad === 1 ? 'record' : 'records'}`] : []),
        ...(files > 0 ? [`${files} column ${files === 1 ? 'problem' : 'problems'}`] : []),
      ];
      throw new UsageError(
        `${what.join(' and ')}; nothing was sent`,
        undefined,
        mixed(checker.errorList, checker.warningList, mark),
      );
    }
    // Its warnings say why a file of records it skips (an HL7 MDL naming no test) holds nothing to do.
    if (spool.count === 0 && checker.named.length === 0)
      throw new UsageError(
        `no ${spec.plural} in the input; nothing was sent`,
        undefined,
        mixed(checker.errorList, checker.warningList, (w) => `warning: ${w}`),
      );
    checker.forget();
    return { spool, checker };
  } catch (err) {
    await spool.close();
    throw spoolProblem(err);
  }
}

/** The plan as the spool is read back, a batch at a time. */
export async function* planned(spec: SyncSpec, checked: Checked, found: Existing): AsyncGenerator<PlanItem[]> {
  for await (const batch of checkedRecords(checked.spool)) yield batch.map((rec) => planOne(spec, rec, found));
}

export interface PlanCounts {
  create: number;
  update: number;
  unchanged: number;
  error: number;
}

interface SendOptions {
  client: ApiClient;
  spec: SyncSpec;
  concurrency: number;
  /** Resolves when sending must stop (Ctrl-C); requests in flight still finish. */
  stop: Promise<unknown>;
  onDone?: (r: RecordResult, done: number) => void;
  /** With --prune: deleted once every record of the input is sent (not when interrupted). */
  deletions?: Deletion[];
}

/**
 * Sends the plan, then the deletions of --prune, counting what happened to each record; the results
 * go to a spool in the input's order, for the summary. The caller closes the tally's spool.
 */
export async function sendPlan(checked: Checked, found: Existing, o: SendOptions): Promise<Tally> {
  // Results are held up to 1 MB (about 5,000 of them), then spooled: a summary needs no record in memory,
  // and what is held stays live through the whole send, so it sets how far V8 lets garbage grow.
  const tally = new Tally(new Spool(jsonLines<RecordResult>(), 1 << 20), o.deletions !== undefined);
  try {
    const total = checked.spool.count;
    const outcome = await execute(planned(o.spec, checked, found), {
      client: o.client,
      path: o.spec.path,
      concurrency: o.concurrency,
      total,
      stop: o.stop,
      onDone: o.onDone,
      emit: (r) => tally.add(r),
      behind: () => tally.behind(),
    });
    tally.counts.interrupted = outcome.interrupted;
    tally.counts.timedOut = outcome.timedOut;
    // Deleting last: a run cut short leaves a record too many, never one too few.
    if (o.deletions && !outcome.interrupted && !outcome.timedOut) {
      let done = total;
      tally.counts.timedOut = await removeAll(o.deletions, {
        client: o.client,
        path: o.spec.path,
        concurrency: o.concurrency,
        stop: o.stop,
        onDone: (r) => {
          o.onDone?.(r, ++done);
          tally.add(r);
        },
      });
    }
    await tally.records.settled();
    return tally;
  } catch (err) {
    await tally.records.close();
    throw spoolProblem(err, true);
  }
}
