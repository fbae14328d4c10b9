import type { Ctx, RunState } from '../../context.js';
import { measureSyncSpec } from '../../core/sync/measures-spec.js';
import type { SyncOptions } from '../resource/sync-options.js';
import { runSync } from '../resource/sync-run.js';

/** `measures import`, its options parsed: the measures' sync spec (lint, FHIR), then import's steps. */
export async function runImport(
  ctx: Ctx,
  opts: SyncOptions & { test?: string; leaveOutRanges?: boolean },
  files: string[],
  state: RunState,
): Promise<void> {
  await runSync(ctx, opts, await measureSyncSpec(opts.test, { leaveOut: opts.leaveOutRanges }), files, state);
}
