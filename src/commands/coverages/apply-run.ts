import type { Ctx, RunState } from '../../context.js';
import { syncSpec } from '../../core/sync/spec.js';
import { coverages } from '../../resources/index.js';
import type { SyncOptions } from '../resource/sync-options.js';
import { runSync } from '../resource/sync-run.js';

/** `coverages apply`, its options parsed: the coverages' sync spec, then apply's steps. */
export async function runApply(ctx: Ctx, opts: SyncOptions, files: string[], state: RunState): Promise<void> {
  await runSync(ctx, opts, await syncSpec(coverages), files, state);
}
