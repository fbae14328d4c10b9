// Covers: src/formats/catalog.ts src/formats/csv/ src/formats/fhir/ src/formats/hl7/ages.ts
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sameServerText } from '../helpers/round-trip.js';
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

// Ages a script computes: 3.590710444841534 y is whole in no unit; 0.0192 y (7.0128 d) is near 7 d, and an
// HL7 reader that takes 0.0192 as a rounded 7 d (0.019164…) would move the band; 12.000000000000002 is 12 y
// to any reader of 15 digits (clinadmin help ranges), so it is that age.
const AGED = {
  test: 'tst_aged',
  name: 'Aged ratio',
  type: 'numeric',
  unit: 'mmol/L',
  referenceRanges: [
    { sex: 'male', ageMin: 0.0192, ageMax: 3.590710444841534, min: 1, max: 2 },
    { sex: 'male', ageMin: 3.590710444841534, ageMax: 12.000000000000002, min: 2, max: 3 },
    // 130 y to 15 digits in hours (1139580 h), though not quite in years: the one age 130 y.
    { sex: 'male', ageMin: 12.000000000000002, ageMax: 129.99999999986952, min: 3, max: 4 },
  ],
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

describe('the server’s own ages in every format', () => {
  it.each(FORMATS)('%s: 16- and 17-digit ages survive export, import and re-import', async (format) => {
    const from = await cliOnServer({ events: false });
    expect((await from.s.call('POST', '/diagnostic-measures', AGED)).status).toBe(200);
    const file = `catalog.${EXT[format]}`;
    const out = await from.cli(['measures', 'export', '--format', format, '--out', file]);
    expect(out.code, out.stderr).toBe(0);
    const to = await cliOnServer({ events: false });
    await copyFile(join(from.dir, file), join(to.dir, file));
    const imported = await to.cli(['measures', 'import', file]);
    expect(imported.code, imported.stderr).toBe(0);
    const [held] = (await to.s.call('GET', '/diagnostic-measures')).body as Rec[];
    expect((held.referenceRanges as Rec[]).map((r) => [r.ageMin, r.ageMax])).toEqual([
      [0.0192, 3.590710444841534],
      [3.590710444841534, 12],
      [12, 130],
    ]);
    // And the empty serve's export is the same file again.
    expect((await to.cli(['measures', 'export', '--format', format, '--out', `again.${EXT[format]}`])).code).toBe(0);
    const [first, back] = await Promise.all([
      readFile(join(from.dir, file), 'utf8'),
      readFile(join(to.dir, `again.${EXT[format]}`), 'utf8'),
    ]);
    expect(sameServerText(back)).toBe(sameServerText(first));
    const again = await from.cli(['measures', 'import', file, '--dry-run', '--exit-code']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});
