import type { SyncSpec } from '../../core/sync/prepare.js';
import { measures } from '../../resources/index.js';

/** Measures are found by (test, name); the import also checks clinical sense with lint. */
export async function measureSyncSpec(): Promise<SyncSpec> {
  const [{ syncSpec }, { lintMeasure }] = await Promise.all([
    import('../../core/sync/spec.js'),
    import('../../core/lint.js'),
  ]);
  return syncSpec(measures, (r) => lintMeasure(r));
}
