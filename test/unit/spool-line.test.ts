// Covers: src/core/sync/spool-line.ts
import { describe, expect, it } from 'vitest';
import type { Prepared } from '../../src/core/sync/prepare.js';
import { fromLine, toLine } from '../../src/core/sync/spool-line.js';

// A checked record spooled to disk (an import past 4 MB) comes back as it was checked, the format it was read
// from included: an HL7 record read back from the spool still leaves SI bounds as the server has them.

const base: Prepared = {
  src: { source: 'c.hl7', position: 3, line: 12 },
  id: 'msr_1',
  name: 'Glucose',
  key: 'tst_bmp\u0000Glucose',
  scope: 'tst_bmp',
  json: '{"test":"tst_bmp","name":"Glucose"}',
  warnings: [],
  ordinal: 2,
  file: 1,
  warned: false,
};

describe('the import spool line', () => {
  it('keeps the format a record was read from, and no format for JSON and CSV', () => {
    expect(fromLine(toLine({ ...base, carrier: 'hl7' }))).toEqual({ ...base, carrier: 'hl7' });
    expect(fromLine(toLine({ ...base, carrier: 'fhir' }))).toEqual({ ...base, carrier: 'fhir' });
    expect(fromLine(toLine(base))).toEqual(base);
  });
});
