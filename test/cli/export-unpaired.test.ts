// Covers: src/formats/catalog.ts src/commands/measures/export-run.ts
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostileServer } from '../helpers/hostile.js';
import { runShipped } from '../helpers/run-shipped.js';
import { tempDir } from '../helpers/tmp.js';

// A server that cut a name in the middle of an emoji holds half of a UTF-16 pair (JSON's `\ud83e` alone,
// RFC 8259 8.2 allows it). UTF-8 has no bytes for it (RFC 3629 3: surrogates are not characters), so a CSV
// or HL7 file gets U+FFFD: the export says so, naming the record and the field, and JSON keeps the escape.
const MEASURE =
  '{"id":"msr_1","test":"tst_cbc","name":"Hemoglobin \\ud83e","type":"numeric","unit":"g/dL",' +
  '"referenceRanges":[{"min":12,"max":16,"label":"adult \\udd2c"}]}';

describe('an export of a text with half of a UTF-16 pair', () => {
  it('writes U+FFFD into CSV and HL7 and names each such text; JSON keeps it as written', async () => {
    const server = await hostileServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`[${MEASURE}]`);
    });
    const dir = await tempDir();
    const env = { CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: 'tok-unpaired-1234' };
    for (const format of ['csv', 'hl7']) {
      const out = join(dir, `c.${format}`);
      const r = await runShipped(['measures', 'export', '--format', format, '--out', out], { env });
      expect(r.code, r.stderr).toBe(0);
      const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
      const said = `holds half of a UTF-16 pair, which ${format} (UTF-8) cannot write; written as U+FFFD`;
      expect(warnings).toEqual([
        `warning: Hemoglobin \\ud83e (test tst_cbc): name ${said}`,
        `warning: Hemoglobin \\ud83e (test tst_cbc): referenceRanges[0].label ${said}`,
      ]);
      expect(await readFile(out, 'utf8')).toContain('Hemoglobin \uFFFD');
    }
    const json = await runShipped(['measures', 'export', '--format', 'json'], { env });
    expect(json.stderr).not.toContain('warning:');
    expect(json.stdout).toContain('"name": "Hemoglobin \\ud83e"');
    await server.close();
  });
});
