import type { FieldError } from '../schemas/common.js';
import type { Warning } from './lint.js';

// A range a file limits to people a measure cannot name (a race, a pregnancy, a condition, an age or sex we
// cannot read): held without that limit it would hold for more people than written, so it is never held.

/** The flag that imports a measure without such ranges, each listed as left out; without it they are errors. */
export const LEAVE_OUT_FLAG = '--leave-out-ranges';

/** How the readers of other systems' files (FHIR, HL7) answer such a range. */
export interface Unheld {
  /** --leave-out-ranges: the measure is imported without the range, with a warning naming it. */
  leaveOut?: boolean;
}

/**
 * Reports a range at `place` that holds only for `what` (`race "2106-3"`): an error naming the flag, or, under
 * --leave-out-ranges, a warning that the range is left out. The caller then leaves the range out either way.
 */
export function unheldRange(
  unheld: Unheld,
  place: string,
  what: string,
  out: { warnings: Warning[]; errors: FieldError[] },
): void {
  if (unheld.leaveOut) {
    out.warnings.push({ field: place, message: `a range only for ${what}: range left out` });
    return;
  }
  out.errors.push({
    path: place,
    message:
      `a range only for ${what}: a measure's range cannot hold that limit, and without it the range would ` +
      `hold for more people; ${LEAVE_OUT_FLAG} imports the measure without it`,
  });
}
