// Covers: src/formats/records.ts
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// Files in a form import does not read are refused in one line that says what the file is and what to give:
// FHIR's XML form (its root element in the namespace http://hl7.org/fhir, FHIR R4 §2.6 XML), and a file
// named .hl7 that holds no HL7 v2 message.

describe('a file in a form import does not read', () => {
  it('refuses FHIR XML in one line naming FHIR JSON', async () => {
    const { dir, cli } = await cliOnServer({ events: false });
    // HL7's Order Catalog IG example as published, in XML (test/fixtures/fhir/README.md).
    await writeFile(
      join(dir, 'k.xml'),
      await readFile(new URL('../fixtures/fhir/order-catalog-serum-potassium.xml', import.meta.url)),
    );
    for (const verb of ['lint', 'import']) {
      const r = await cli(['measures', verb, 'k.xml', '--test', 'tst_k']);
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split('\n')[0]).toBe(
        'error: k.xml is FHIR XML, which is not read: give the same resources as FHIR JSON (a Bundle or ' +
          'ObservationDefinitions), as a FHIR server returns with _format=json',
      );
      expect(r.stderr).not.toContain('JSON:');
    }
  });

  it('reads a .hl7 file as HL7 whatever it holds: no MSH segment, never a JSON error', async () => {
    const { dir, cli } = await cliOnServer({ events: false });
    for (const body of ['[{"name": "x"}]', '{"name": "x"}', 'OBX|1|NM|2823-3^K^LN||4.1\r']) {
      await writeFile(join(dir, 'c.hl7'), body);
      const r = await cli(['measures', 'import', 'c.hl7', '--test', 'tst_k']);
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split('\n')[0]).toBe(
        'error: c.hl7 is not HL7 v2: its first segment must be MSH, FHS or BHS (a master file, MFN^M08), ' +
          'and it has no MSH segment',
      );
    }
  });
});
