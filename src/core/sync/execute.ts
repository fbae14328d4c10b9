import type { ApiClient } from '../../api/client.js';
import { DeadlineError } from '../../errors.js';
import type { Spool } from '../../files/spool.js';
import { JsonText } from '../../formats/json/json-text.js';
import type { PlanItem } from './plan.js';

export type Outcome = 'created' | 'updated' | 'unchanged' | 'deleted' | 'failed' | 'not-sent';

/** One record's outcome: a record of the input by its place, or one deleted by --prune by its id alone. */
export interface RecordResult {
  source?: string;
  position?: number;
  line?: number;
  name?: unknown;
  outcome: Outcome;
  id?: string;
  changed?: string[];
  error?: string;
}

/** What a stopped run left unsent, in its sentence's words: `1 measure was not sent`, or that nothing was. */
export function unsentWords(n: number, { noun, plural }: { noun: string; plural: string }): string {
  if (n === 0) return 'nothing was left unsent';
  return n === 1 ? `1 ${noun} was not sent` : `${n} ${plural} were not sent`;
}

/** The counts of a run; `records` are kept on disk (see Tally), not in memory. */
export interface Counts {
  created: number;
  updated: number;
  unchanged: number;
  /** With --prune: the records deleted because the file does not list them. */
  deleted?: number;
  failed: number;
  notSent: number;
  interrupted: boolean;
  /** --timeout passed: the requests in flight failed, the rest were not sent. */
  timedOut: boolean;
}

const SHOWN_FAILURES = 50;
const BACKLOG = 4 << 20;

/**
 * What happened to each record, counted as it happens: each result goes to a spool in the input's
 * order, so the summary of 100,000 records is written out from disk, and only the first failures stay
 * in memory for stderr.
 */
export class Tally {
  readonly counts: Counts;
  readonly failures: RecordResult[] = [];

  constructor(
    readonly records: Spool<RecordResult>,
    pruned: boolean,
  ) {
    this.counts = {
      created: 0,
      updated: 0,
      unchanged: 0,
      ...(pruned ? { deleted: 0 } : {}),
      failed: 0,
      notSent: 0,
      interrupted: false,
      timedOut: false,
    };
  }

  add(r: RecordResult): void {
    const c = this.counts;
    if (r.outcome === 'created') c.created++;
    else if (r.outcome === 'updated') c.updated++;
    else if (r.outcome === 'unchanged') c.unchanged++;
    else if (r.outcome === 'deleted') c.deleted = (c.deleted ?? 0) + 1;
    else if (r.outcome === 'failed') {
      c.failed++;
      if (this.failures.length < SHOWN_FAILURES) this.failures.push(r);
    } else c.notSent++;
    this.records.push(r, 200);
  }

  /** While the disk is behind by more than 4 MB, a promise to wait on; otherwise undefined. */
  behind(): Promise<void> | undefined {
    return this.records.backlog > BACKLOG ? this.records.settled() : undefined;
  }

  /** How many records were sent (or deleted), whatever the answer. */
  get sent(): number {
    return this.records.count - this.counts.notSent;
  }
}

export interface RunOptions {
  client: ApiClient;
  path: string;
  concurrency: number;
  /** How many items there are, for progress. */
  total: number;
  /** Called after each record is done, in the order they finish (progress, verbose lines). */
  onDone?: (r: RecordResult, done: number) => void;
  /** Each result, in the input's order. */
  emit: (r: RecordResult) => void;
  /** A promise while the results' sink is behind (a slow disk), so that sending waits for it. */
  behind?: () => Promise<void> | undefined;
  /** Resolves when sending must stop (Ctrl-C); requests in flight still finish. */
  stop: Promise<unknown>;
}

const base = (item: PlanItem): Pick<RecordResult, 'source' | 'position' | 'line' | 'name'> => ({
  source: item.rec.src.source,
  position: item.rec.src.position,
  ...(item.rec.src.line !== undefined ? { line: item.rec.src.line } : {}),
  name: item.rec.name,
});

/**
 * A record whose request the command's deadline cut: failed, and said whether the server may have done
 * it; or, when none was begun, not sent.
 */
export function cutByDeadline(err: DeadlineError, r: RecordResult, did: string): RecordResult {
  if (!err.inFlight) return { ...r, outcome: 'not-sent' };
  const error = `no answer before --timeout ${err.seconds} s passed; it may have been ${did} (its outcome is unknown)`;
  return { ...r, outcome: 'failed', error };
}

/**
 * Sends the plan as it is read, with bounded concurrency over one connection pool; one failure never
 * stops the rest, but a stop does (Ctrl-C, or --timeout passing). The plan comes in batches, so a record
 * costs no step of its own between the spool and the socket. After a stop, the items not yet sent are
 * still read, to be reported as not sent.
 */
export async function execute(
  batches: AsyncIterable<PlanItem[]>,
  o: RunOptions,
): Promise<{ interrupted: boolean; timedOut: boolean }> {
  const source = batches[Symbol.asyncIterator]();
  let batch: PlanItem[] = [];
  let at = 0;
  let first = 0;
  let exhausted = false;
  // The next batch is read while this one is sent, so no worker waits on the disk between batches.
  let coming = source.next();
  let refill: Promise<void> | undefined;
  /** The next item and its place in the input, taking the batch read meanwhile when this one is used up. */
  const more = async (): Promise<[number, PlanItem] | undefined> => {
    while (at >= batch.length) {
      if (exhausted) return undefined;
      refill ??= coming.then((r) => {
        first += batch.length;
        batch = r.done ? [] : r.value;
        exhausted = r.done === true;
        at = 0;
        refill = undefined;
        if (!exhausted) coming = source.next();
      });
      await refill;
    }
    return [first + at, batch[at++]];
  };
  let done = 0;
  let stopped = false;
  let interrupted = false;
  let timedOut = false;
  void o.stop.then(() => {
    interrupted = true;
    stopped = true;
  });
  // Results finish out of order; they are emitted in order, holding at most those ahead of the slowest.
  const ahead = new Map<number, RecordResult>();
  let emitted = 0;
  const finish = (i: number, r: RecordResult) => {
    ahead.set(i, r);
    done++;
    o.onDone?.(r, done);
    for (let next = ahead.get(emitted); next !== undefined; next = ahead.get(emitted)) {
      ahead.delete(emitted++);
      o.emit(next);
    }
  };
  const one = async (i: number, item: PlanItem) => {
    if (stopped) return finish(i, { ...base(item), outcome: 'not-sent', id: item.id });
    if (item.action === 'unchanged') return finish(i, { ...base(item), outcome: 'unchanged', id: item.id });
    if (item.action === 'error') return finish(i, { ...base(item), outcome: 'failed', id: item.id, error: item.error });
    try {
      if (item.action === 'create') {
        const created = await o.client.request<{ id: string }>('POST', o.path, new JsonText(item.rec.json));
        finish(i, { ...base(item), outcome: 'created', id: created.id });
      } else {
        await o.client.request('PATCH', `${o.path}/${encodeURIComponent(item.id!)}`, item.patch);
        finish(i, { ...base(item), outcome: 'updated', id: item.id, changed: item.changes!.map((c) => c.field) });
      }
    } catch (err) {
      if (err instanceof DeadlineError) {
        timedOut = stopped = true;
        const r = { ...base(item), outcome: 'failed' as const, id: item.id };
        return finish(i, cutByDeadline(err, r, item.action === 'create' ? 'created' : 'updated'));
      }
      const details = (err as { details?: string[] }).details ?? [];
      const message = [(err as Error).message, ...details].join('; ');
      finish(i, { ...base(item), outcome: 'failed', id: item.id, error: message });
    }
  };
  const worker = async () => {
    for (;;) {
      const next = at < batch.length ? ([first + at, batch[at++]] as const) : await more();
      if (!next) return;
      await one(next[0], next[1]);
      // The results are written as they come; a slow disk slows the sending rather than filling memory.
      const wait = o.behind?.();
      if (wait) await wait;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, o.total)) }, worker));
  return { interrupted, timedOut };
}
