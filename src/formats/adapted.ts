import type { Warning } from '../core/lint.js';
import type { FieldError } from '../schemas/common.js';
import type { Carrier } from './kept.js';

/** A record of another format (a FHIR ObservationDefinition, an HL7 master-file record) as the import takes it. */
export interface Adapted {
  value: Record<string, unknown>;
  warnings: Warning[];
  errors: FieldError[];
  /** A measure field's FHIR path, for messages: `referenceRanges[0].min` → `qualifiedInterval[2].range.low.value`. */
  pathOf: (measurePath: string) => string;
  /** Not an ObservationDefinition: reported, and left out of the import. */
  skip?: boolean;
  /** A skipped record the file deletes (HL7's MDL): --prune deletes the one record it names, and no other. */
  deletes?: boolean;
  /** A record of a file of changes (HL7 MFI-3 UPD): its test is not the file's to hold under --prune. */
  unscoped?: boolean;
  /** The format, where it has no place for some fields: the import leaves them as stored (sync/kept.ts). */
  carrier?: Carrier;
}
