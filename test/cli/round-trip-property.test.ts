// Covers: src/formats/catalog.ts src/formats/csv/ src/formats/fhir/ src/formats/hl7/
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { catalog } from '../helpers/catalog-arbitrary.js';
import { FORMATS, holding, roundTrip, SEED } from '../helpers/round-trip.js';

// Whatever serve holds comes back from every export (docs/catalogs.md, "Fields and formats"): for generated
// catalogs serve accepts, each format's export imported into an empty serve exports the same again, and
// imported back into the first serve plans nothing. A fixed seed and a few runs here; the system tier runs
// more (test/system/round-trip-property.test.ts). A failure prints the seed and the shrunk catalog.

describe('export → import round trips, over generated catalogs', () => {
  it('every format gives the same export back and plans no change', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(catalog(3), async (measures) => {
        const { a, testOf } = await holding(measures);
        try {
          for (const format of FORMATS) {
            const fault = await roundTrip(a, testOf, format);
            if (fault) throw new Error(fault);
          }
        } finally {
          await a.s.close();
        }
      }),
      { seed: SEED, numRuns: 3 },
    );
  });
});
