import type { ApiClient } from '../../api/client.js';
import { UsageError } from '../../errors.js';
import type { SourceRecord } from '../records.js';
import { execute, type RecordResult, type Summary, summarize } from './execute.js';
import type { PlanItem } from './plan.js';
import { type Preparation, prepare, type SyncSpec } from './prepare.js';
import { type Deletion, removeAll } from './prune.js';

// Import and apply as steps that return data: check the input, plan, send. The command wires them to
// the terminal (output/sync.ts draws the plan, the progress and the summary).

const MAX_LISTED = 50;

/** At most 50 lines, then how many more: a 10,000-record file with one mistake repeated stays readable. */
export function listed(lines: string[]): string[] {
  return lines.length <= MAX_LISTED
    ? lines
    : [...lines.slice(0, MAX_LISTED), `… and ${lines.length - MAX_LISTED} more`];
}

/**
 * Validates every record before anything is sent; throws a usage error that lists each invalid one
 * (with --strict, lint warnings count as errors too).
 */
export function checkInput(spec: SyncSpec, sources: SourceRecord[], strict: boolean): Preparation {
  const prep = prepare(spec, sources);
  const errors = strict ? [...prep.errors, ...prep.warnings.map((w) => `${w} (an error with --strict)`)] : prep.errors;
  if (errors.length > 0) {
    const bad = new Set(errors.map((e) => e.split(': ')[0])).size;
    throw new UsageError(
      `${bad} invalid ${bad === 1 ? 'record' : 'records'}; nothing was sent`,
      undefined,
      listed(errors),
    );
  }
  if (prep.records.length === 0) throw new UsageError(`no ${spec.plural} in the input; nothing was sent`);
  return prep;
}

export interface PlanCounts {
  create: number;
  update: number;
  unchanged: number;
  error: number;
}

export function countPlan(items: PlanItem[]): PlanCounts {
  const counts = { create: 0, update: 0, unchanged: 0, error: 0 };
  for (const i of items) counts[i.action]++;
  return counts;
}

export interface SendOptions {
  client: ApiClient;
  spec: SyncSpec;
  concurrency: number;
  /** Resolves when sending must stop (Ctrl-C); requests in flight still finish. */
  stop: Promise<unknown>;
  onDone?: (r: RecordResult, done: number) => void;
  /** With --prune: deleted once every record of the input is sent (not when interrupted). */
  deletions?: Deletion[];
}

/** Sends the plan, then the deletions of --prune, and sums up what happened to each record. */
export async function send(items: PlanItem[], o: SendOptions): Promise<Summary> {
  const outcome = await execute(items, {
    client: o.client,
    path: o.spec.path,
    concurrency: o.concurrency,
    stop: o.stop,
    onDone: o.onDone,
  });
  const results = outcome.results;
  // Deleting last: a run cut short leaves a record too many, never one too few.
  if (o.deletions && !outcome.interrupted) {
    let done = results.length;
    const removed = await removeAll(o.deletions, {
      client: o.client,
      path: o.spec.path,
      concurrency: o.concurrency,
      stop: o.stop,
      onDone: (r) => o.onDone?.(r, ++done),
    });
    results.push(...removed);
  }
  return summarize(results, outcome.interrupted, o.deletions !== undefined);
}
