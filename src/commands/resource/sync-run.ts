import type { Ctx, RunState } from '../../context.js';
import { runImport, type SyncResult } from '../../core/sync/pipeline.js';
import type { SyncSpec } from '../../core/sync/prepare.js';
import { syncSpec } from '../../core/sync/spec.js';
import { EXIT, UsageError } from '../../errors.js';
import { columnMap } from '../../formats/csv/cells.js';
import { forEachRecord } from '../../formats/record-stream.js';
import { formOf } from '../../formats/records.js';
import { terminalView } from '../../output/sync-view.js';
import { coverages } from '../../resources/index.js';
import { connect } from '../connect.js';
import type { SyncOptions } from './sync-options.js';

/** What `measures import` parses beyond the options it shares with `coverages apply`. */
type ImportOptions = SyncOptions & { test?: string; leaveOutRanges?: boolean };

/**
 * `measures import` and `coverages apply`, their options parsed (sync-options.ts): the group's sync spec, the
 * input, the connection and the view handed to the import (core/sync/pipeline.ts), its result an exit code.
 */
export async function runSync(
  ctx: Ctx,
  o: ImportOptions,
  group: 'measures' | 'coverages',
  files: string[],
  state: RunState,
): Promise<void> {
  // Deleting without asking is refused before anything is read or sent, as `delete` refuses.
  if (o.prune && !o.dryRun && !o.yes && !ctx.isInteractive) {
    throw new UsageError(
      `refusing to --prune without --yes: no terminal to confirm the deletions at; nothing was sent`,
      `add --yes to delete without asking, or --dry-run to see what would be deleted`,
    );
  }
  const spec = await specOf(group, o);
  const result = await runImport(
    spec,
    {
      read: (each, pause) => forEachRecord(ctx, files, each, pause, formOf(o.format), columnMap(o.column)),
      strict: Boolean(o.strict),
      dryRun: Boolean(o.dryRun),
      prune: Boolean(o.prune),
      yes: Boolean(o.yes),
      concurrency: o.concurrency,
      deadlineMs: o.deadline?.ms,
      interrupt: () => ctx.waitForSignal(['SIGINT', 'SIGTERM']),
    },
    async () => (await connect(ctx, { ...o, connections: o.concurrency })).client,
    terminalView(ctx, o, spec),
  );
  state.exitCode = exitCodeOf(result, Boolean(o.exitCode));
}

/** The measures' spec (lint, FHIR, HL7, --test) or the coverages' (the registry's alone). */
async function specOf(group: 'measures' | 'coverages', o: ImportOptions): Promise<SyncSpec> {
  if (group === 'coverages') return syncSpec(coverages);
  const { measureSyncSpec } = await import('../../core/sync/measures-spec.js');
  return measureSyncSpec(o.test, { leaveOut: o.leaveOutRanges });
}

/**
 * A dry run exits as the real run would: 1 when a record is in error, and with --exit-code also 1 for
 * changes (drift); a run 130 when interrupted, 1 when a record failed.
 */
function exitCodeOf(r: SyncResult, driftFails: boolean): number {
  if (r.dryRun) {
    const changes = r.plan.create > 0 || r.plan.update > 0 || !!r.deleting;
    return r.plan.error > 0 || (driftFails && changes) ? EXIT.failure : EXIT.ok;
  }
  return r.counts.interrupted ? EXIT.interrupted : r.counts.failed > 0 ? EXIT.failure : EXIT.ok;
}
