import { SHEET_WITHOUT_TEST } from '../../formats/csv/columns.js';
import { fromObservationDefinition } from '../../formats/fhir/from-observation-definition.js';
import { adaptHl7, FROM_HL7, type Hl7Value } from '../../formats/hl7/read.js';
import { measures } from '../../resources/index.js';
import type { Unheld } from '../unheld.js';
import { measureLinter } from '../units.js';
import type { SyncSpec } from './prepare.js';
import { syncSpec } from './spec.js';

/**
 * Measures are found by (test, name); the import also checks clinical sense with lint, and reads FHIR
 * ObservationDefinitions and HL7 v2 master files as measures, a missing test taken from `test` (--test), a
 * range they limit to people a range cannot name refused or, under `unheld.leaveOut` (--leave-out-ranges), left out.
 */
export async function measureSyncSpec(test?: string, unheld: Unheld = {}): Promise<SyncSpec> {
  const lint = await measureLinter();
  const spec = await syncSpec(measures, (r) => lint(r));
  const valueSets = new WeakMap();
  spec.adapt = (r) => {
    const hl7 = (r as Hl7Value)[FROM_HL7];
    if (hl7) return adaptHl7(hl7, test, unheld);
    // A sheet without a test column takes --test, as FHIR and HL7 files do.
    if ((r as Record<symbol, unknown>)[SHEET_WITHOUT_TEST])
      return {
        value: test === undefined ? r : { ...r, test },
        warnings: [],
        errors: test === undefined ? [{ path: 'test', message: 'the sheet has no test column; give --test ID' }] : [],
        pathOf: (p) => p,
      };
    return r.resourceType === undefined ? undefined : fromObservationDefinition(r, test, valueSets, unheld);
  };
  return spec;
}
