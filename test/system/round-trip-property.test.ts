// Covers: src/formats/catalog.ts src/formats/csv/ src/formats/fhir/ src/formats/hl7/
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { catalog } from '../helpers/catalog-arbitrary.js';
import { FORMATS, holding, roundTrip, SEED } from '../helpers/round-trip.js';

// test/cli/round-trip-property.test.ts with more and larger catalogs: every export format, imported into an
// empty serve, exports the same again and plans no change against the first. A failure prints the seed and
// the shrunk catalog; CLINADMIN_PROPERTY_SEED runs another seed.

const seed = Number(process.env.CLINADMIN_PROPERTY_SEED ?? SEED);

describe('export → import round trips, over many generated catalogs', () => {
  it('every format gives the same export back and plans no change', { timeout: 1_800_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(catalog(6), async (measures) => {
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
      { seed, numRuns: 40 },
    );
  });
});
