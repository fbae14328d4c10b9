import type { SyncSpec } from '../../core/sync/prepare.js';
import { measures } from '../../resources/index.js';

/**
 * Measures are found by (test, name); the import also checks clinical sense with lint, and reads FHIR
 * ObservationDefinitions as measures, a missing test taken from `test` (--test).
 */
export async function measureSyncSpec(test?: string): Promise<SyncSpec> {
  const [{ syncSpec }, { lintMeasure }, { fromObservationDefinition }] = await Promise.all([
    import('../../core/sync/spec.js'),
    import('../../core/lint.js'),
    import('../../core/fhir/observation-definition.js'),
  ]);
  const spec = await syncSpec(measures, (r) => lintMeasure(r));
  spec.adapt = (r) => (r.resourceType === undefined ? undefined : fromObservationDefinition(r, test));
  return spec;
}
