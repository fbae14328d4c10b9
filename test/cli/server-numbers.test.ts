import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// What serve holds comes back from every export. A script's arithmetic stores doubles whose shortest text
// has 16 or 17 significant digits (7.22 + 1e-15 is 7.220000000000001, ECMA-262 Number::toString); JSON
// carries them as written, and every other format must too: an export imported into an empty server gives
// the same numbers, and imported back plans nothing.

type Rec = Record<string, unknown>;
const FORMATS = ['json', 'csv', 'fhir', 'fhir-ndjson', 'hl7'] as const;
const EXT = { json: 'json', csv: 'csv', fhir: 'fhir.json', 'fhir-ndjson': 'ndjson', hl7: 'hl7' } as const;

const MEASURE = {
  test: 'tst_calc',
  name: 'Computed ratio',
  type: 'numeric',
  unit: 'mmol/L',
  referenceRanges: [{ min: 7.220000000000001, max: 9.300000000000002 }],
  panicRanges: [{ min: 0.30000000000000004, max: 12.000000000000002 }],
};

const ranges = (m: Rec) => ({ referenceRanges: m.referenceRanges, panicRanges: m.panicRanges });
const strip = (list: Rec[]) =>
  list.map(({ id: _i, createdAt: _c, createdBy: _b, referenceRanges, ...m }) => ({
    ...m,
    referenceRanges: (referenceRanges as Rec[]).map(({ id: _r, ...r }) => r),
  }));

describe('the server’s own numbers in every format', () => {
  it.each(FORMATS)('%s: 17-significant-digit bounds survive export, import and re-import', async (format) => {
    const from = await cliOnServer({ events: false });
    expect((await from.s.call('POST', '/diagnostic-measures', MEASURE)).status).toBe(200);
    const file = `catalog.${EXT[format]}`;
    const out = await from.cli(['measures', 'export', '--format', format, '--out', file]);
    expect(out.code, out.stderr).toBe(0);
    const to = await cliOnServer({ events: false });
    await copyFile(join(from.dir, file), join(to.dir, file));
    const imported = await to.cli(['measures', 'import', file]);
    expect(imported.code, imported.stderr).toBe(0);
    const [held] = (await to.s.call('GET', '/diagnostic-measures')).body as Rec[];
    expect(ranges(held)).toEqual({
      referenceRanges: [expect.objectContaining({ min: 7.220000000000001, max: 9.300000000000002 })],
      panicRanges: [expect.objectContaining({ min: 0.30000000000000004, max: 12.000000000000002 })],
    });
    expect(strip([held])).toEqual(strip((await from.s.call('GET', '/diagnostic-measures')).body));
    const again = await from.cli(['measures', 'import', file, '--dry-run', '--exit-code']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});
