// Covers: src/formats/hl7/ src/commands/resource/sync-run.ts src/commands/measures/export-run.ts
// Covers: src/formats/adapted.ts
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// measures import, lint and export of HL7 v2.5.1 master files (chapter 8: MFN^M08, M09, M10). The expected
// measures are read off the compendium's own segments (docs/samples/compendium.hl7, a reference lab's file
// in the eDOS layout): OM1-2 the code and name, OM2-2 the unit, OM2-6 and OM2-7 the ranges (RFR: low&high ^
// sex ^ age low&high in years), OM3-3 the answers, OM5-2 the members of each battery.

const SAMPLE = new URL('../../docs/samples/compendium.hl7', import.meta.url);
const server = () => cliOnServer({ events: false });
type Rec = Record<string, unknown>;
const DAY = 1 / 365.25;

async function imported() {
  const s = await server();
  await writeFile(join(s.dir, 'compendium.hl7'), await readFile(SAMPLE));
  const r = await s.cli(['measures', 'import', 'compendium.hl7', '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  const list = JSON.parse((await s.cli(['measures', 'list', '-o', 'json'])).stdout) as Rec[];
  const byCode = (code: string) => list.find((m) => m.hl7IdentifierCod === code)!;
  return { ...s, r, list, byCode };
}

describe('measures import of an HL7 v2 compendium', () => {
  it('makes a measure of each observation, its test from the battery that lists it', async () => {
    const { r, list, byCode } = await imported();
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 8, failed: 0 });
    expect(list.map((m) => `${m.test} ${m.hl7IdentifierCod}`).sort()).toEqual([
      '24321-2 2345-7',
      '24321-2 2823-3',
      '24321-2 2951-2',
      '24356-8 5778-6',
      '24356-8 5802-4',
      '58410-2 6690-2',
      '58410-2 718-7',
      'NBILI 1975-2',
    ]);
    expect(byCode('2951-2')).toMatchObject({
      name: 'Sodium [Moles/volume] in Serum or Plasma',
      hl7IdentifierSys: 'LN',
      type: 'numeric',
      unit: 'mmol/L',
      description: 'Sodium, serum',
      referenceRanges: [{ min: 136, max: 145 }],
      panicRanges: [{ min: 120, max: 160 }],
    });
    // Escapes in names: \T\ is the subcomponent separator (&), \F\ the field separator (|).
    expect(byCode('5778-6')).toMatchObject({
      name: 'Color & clarity of Urine',
      type: 'multiplechoice',
      choices: ['Yellow', 'Amber', 'Red | brown', 'Colorless'],
    });
    // POS and NEG of HL7 table 0078 are a positive/negative measure.
    expect(byCode('5802-4')).toMatchObject({ type: 'posneg' });
    expect(byCode('1975-2').description).toBe('Neonatal bilirubin & adult range');
    // Glucose's SI unit (OM2-4) is kept; its conversion factor (OM2-5) has no field and is named.
    expect(byCode('2345-7')).toMatchObject({ unit: 'mg/dL', siunit: 'mmol/L' });
    expect(r.stderr).toContain('OM2-5: the SI conversion factor "0.0555" has no field in a measure: not imported');
  });

  it('keeps sexes, ages in years and precision as written', async () => {
    const { byCode } = await imported();
    const hgb = byCode('718-7').referenceRanges as Rec[];
    expect(hgb.map((x) => [x.min, x.max, x.sex])).toEqual([
      [14.5, 22.5, 'all'],
      [10, 13, 'all'],
      [11.5, 15.5, 'all'],
      [13.5, 17.5, 'male'],
      [12, 15.5, 'female'],
    ]);
    // `10.0&13.0`: one decimal each, though the values alone say none.
    expect(hgb[1]).toMatchObject({ minPrecision: 1, maxPrecision: 1 });
    expect(hgb[3]).toMatchObject({ ageMin: 18, ageMax: 120 });
    // Neonatal bands in fractions of a year, to five decimals: 0.00137 y is 12 h, 0.00274 y 1 day (24 h).
    const bili = byCode('1975-2').referenceRanges as Rec[];
    expect(bili[0].ageMin).toBe(0);
    expect(bili[0].ageMax).toBeCloseTo(DAY / 2, 12);
    expect(bili[1].ageMax).toBeCloseTo(DAY, 12);
    expect(bili[2].ageMax).toBeCloseTo(2 * DAY, 12);
    expect(bili[3].ageMax).toBeCloseTo(5 * DAY, 12);
    // A critical limit on one side only: `&15.0`.
    expect(byCode('1975-2').panicRanges).toEqual([expect.objectContaining({ max: 15, maxPrecision: 1 })]);
    expect((byCode('1975-2').panicRanges as Rec[])[0]).not.toHaveProperty('min');
  });

  it('exports one M08 with every measure and an M10 of tests, which imports back with nothing to change', async () => {
    const first = await imported();
    const out = await first.cli(['measures', 'export', '--format', 'hl7']);
    expect(out.code, out.stderr).toBe(0);
    const segs = out.stdout.split('\r').filter(Boolean);
    expect(segs.filter((l) => l.startsWith('MSH')).map((l) => l.split('|')[8])).toEqual([
      'MFN^M08^MFN_M08',
      'MFN^M10^MFN_M10',
    ]);
    expect(segs.filter((l) => l.startsWith('MFE'))).toHaveLength(8 + 4);
    expect(segs).toContain('OM3|4||^Yellow~^Amber~^Red \\F\\ brown~^Colorless');
    await writeFile(join(first.dir, 'export.hl7'), out.stdout);
    const again = await first.cli(['measures', 'import', 'export.hl7', '--dry-run', '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ create: 0, update: 0, unchanged: 8 });
    // On an empty server the export makes the same catalog.
    const second = await server();
    await writeFile(join(second.dir, 'export.hl7'), out.stdout);
    expect((await second.cli(['measures', 'import', 'export.hl7'])).code).toBe(0);
    // Range ids are the server's own, made anew on each.
    const strip = (t: string) => t.replace(/"id": "rr_[\w-]+",?/g, '');
    const [a, b] = await Promise.all([first.cli(['measures', 'export']), second.cli(['measures', 'export'])]);
    expect(strip(b.stdout)).toEqual(strip(a.stdout));
  });

  it('goes HL7 → import → FHIR export → import → HL7 export and keeps every field both carry', async () => {
    const first = await imported();
    const hl7 = (await first.cli(['measures', 'export', '--format', 'hl7'])).stdout;
    const fhir = await first.cli(['measures', 'export', '--format', 'fhir', '--out', 'c.fhir.json']);
    expect(fhir.code, fhir.stderr).toBe(0);
    const second = await server();
    await writeFile(join(second.dir, 'c.fhir.json'), await readFile(join(first.dir, 'c.fhir.json')));
    expect((await second.cli(['measures', 'import', 'c.fhir.json'])).code).toBe(0);
    const back = (await second.cli(['measures', 'export', '--format', 'hl7'])).stdout;
    // Only the time of the message and the ids (new on the second server) differ.
    const norm = (t: string) => t.replace(/\d{14}(\+0000|-\d)/g, 'T').replace(/msr_[\w-]+/g, 'ID');
    expect(norm(back)).toBe(norm(hl7));
  });
});

describe('events, sexes and faults', () => {
  it('deletes an MDL record only under --prune --yes, and reports it otherwise', async () => {
    const s = await server();
    const add = [
      'MSH|^~\\&|L||||20261120||MFN^M08^MFN_M08|1|P|2.5.1',
      'MFI|OMA',
      'MFE|MAD|1||2075-0^Chloride^LN|CWE',
      'OM1|1|2075-0^Chloride^LN|NM',
      'MFE|MAD|2||2951-2^Sodium^LN|CWE',
      'OM1|2|2951-2^Sodium^LN|NM',
    ].join('\r');
    await writeFile(join(s.dir, 'add.hl7'), add);
    expect((await s.cli(['measures', 'import', 'add.hl7', '--test', 'tst_lytes'])).code).toBe(0);
    await writeFile(join(s.dir, 'del.hl7'), add.replace('MFE|MAD|1', 'MFE|MDL|1'));
    const plain = await s.cli(['measures', 'import', 'del.hl7', '--test', 'tst_lytes', '-o', 'json']);
    expect(plain.stderr).toContain(
      '(Chloride): MFE-1: MDL: deleted only by --prune (with --yes); left alone otherwise',
    );
    const names = async () =>
      (JSON.parse((await s.cli(['measures', 'list', '-o', 'json'])).stdout) as Rec[]).map((m) => m.name).sort();
    expect(await names()).toEqual(['Chloride', 'Sodium']);
    const pruned = await s.cli(['measures', 'import', 'del.hl7', '--test', 'tst_lytes', '--prune', '--yes']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(await names()).toEqual(['Sodium']);
  });

  it('reads OM2-3 for bounds written without decimals only when no bound has any', async () => {
    const s = await server();
    const head = 'MSH|^~\\&|L||||20261120||MFN^M08^MFN_M08|1|P|2.5.1\rMFE|MAD|1||1|CWE\rOM1|1|2951-2^Sodium^LN|NM\r';
    await writeFile(join(s.dir, 'mask.hl7'), `${head}OM2|1|mmol/L^^UCUM|5.1|||136&145|120&160\r`);
    await writeFile(join(s.dir, 'mixed.hl7'), `${head}OM2|1|mmol/L^^UCUM|5.1|||136&145.5|120&160\r`);
    await s.cli(['measures', 'import', 'mask.hl7', '--test', 'a']);
    await s.cli(['measures', 'import', 'mixed.hl7', '--test', 'b']);
    const list = JSON.parse((await s.cli(['measures', 'list', '-o', 'json'])).stdout) as Rec[];
    const range = (test: string) => (list.find((m) => m.test === test)!.referenceRanges as Rec[])[0];
    // `5.1` displays 136 as 136.0: every bound takes its one decimal.
    expect(range('a')).toMatchObject({ min: 136, minPrecision: 1, max: 145, maxPrecision: 1 });
    // Beside `145.5`, a bound written `136` says it has none.
    expect(range('b')).toMatchObject({ min: 136, max: 145.5 });
    expect(range('b')).not.toHaveProperty('minPrecision');
  });

  it('refuses MDC and MAC, and the sexes U and A, with a sentence naming the segment', async () => {
    const s = await server();
    const text = [
      'MSH|^~\\&|L||||20261120||MFN^M08^MFN_M08|1|P|2.5.1',
      'MFE|MDC|1||1|CWE',
      'OM1|1|2951-2^Sodium^LN|NM',
      'MFE|MAD|2||2|CWE',
      'OM1|2|718-7^Hemoglobin^LN|NM',
      'OM2|2|g/dL^^UCUM||||13.5&17.5^U~12.0&15.5^A',
    ].join('\n');
    await writeFile(join(s.dir, 'bad.hl7'), text);
    const r = await s.cli(['measures', 'lint', 'bad.hl7', '--test', 't']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('(Sodium): segment 2 (MFE-1): MDC (deactivate) has no field in a measure to hold it');
    expect(r.stderr).toContain('segment 6 (OM2-6) repetition 1, sex: sex "U" (unknown) cannot be a range\'s');
    expect(r.stderr).toContain('segment 6 (OM2-6) repetition 2, sex: sex "A" (ambiguous) cannot be a range\'s');
  });

  it('names a number it cannot read, a message of another type, and a file that is not HL7', async () => {
    const s = await server();
    await writeFile(
      join(s.dir, 'n.hl7'),
      'MSH|^~\\&|L||||1||MFN^M08|1|P|2.5.1\rMFE|MAD|1||1|CWE\rOM1|1|X^Y|NM\rOM2|1|g||||1,5&2',
    );
    const n = await s.cli(['measures', 'lint', 'n.hl7', '--test', 't']);
    expect(n.stderr).toContain('segment 4 (OM2-6) repetition 1, low value: expected a number (NM), found "1,5"');
    await writeFile(join(s.dir, 'adt.hl7'), 'MSH|^~\\&|L||||1||ADT^A01|1|P|2.5.1\rPID|1\r');
    const adt = await s.cli(['measures', 'import', 'adt.hl7']);
    expect(adt.code).toBe(2);
    expect(adt.stderr).toContain('adt.hl7 segment 1 (MSH-9): ADT^A01 is not a master file of observations');
    await writeFile(join(s.dir, 'x.txt'), '[{"name":"x"}]');
    const forced = await s.cli(['measures', 'lint', 'x.txt', '--format', 'hl7']);
    expect(forced.code).toBe(2);
    expect(forced.stderr).toContain('x.txt is not HL7 v2: its first segment must be MSH, FHS or BHS');
  });

  it('refuses a sex or type named after an object property (toString, constructor) as any unknown one', async () => {
    const s = await server();
    const text = [
      'MSH|^~\\&|L||||20261120||MFN^M08^MFN_M08|1|P|2.5.1',
      'MFE|MAD|1||1|CWE',
      'OM1|1|718-7^Hemoglobin^LN|NM',
      'OM2|1|g/dL^^UCUM||||13.5&17.5^toString~12.0&15.5^constructor',
      'MFE|MAD|2||2|CWE',
      'OM1|2|2951-2^Sodium^LN|constructor',
    ].join('\r');
    await writeFile(join(s.dir, 'proto.hl7'), text);
    const r = await s.cli(['measures', 'lint', 'proto.hl7', '--test', 't']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('segment 4 (OM2-6) repetition 1, sex: sex "toString" cannot be a range\'s');
    expect(r.stderr).toContain('segment 4 (OM2-6) repetition 2, sex: sex "constructor" cannot be a range\'s');
    expect(r.stderr).toContain('the data type "constructor" has no measure type (NM, SN, CWE, CE, CNE, ST, TX, FT)');
  });

  it('quotes the first characters of a bad MSH-2, never the whole segment', async () => {
    const s = await server();
    const encoding = `^~\\${'x'.repeat(1_000_000)}`;
    await writeFile(join(s.dir, 'big.hl7'), `MSH|${encoding}|L||||1||MFN^M08|1|P|2.5.1\rMFE|MAD|1||1|CWE\r`);
    const r = await s.cli(['measures', 'lint', 'big.hl7']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`MSH-2 must declare four distinct encoding characters`);
    expect(r.stderr).toContain(`found "${encoding.slice(0, 40)}…"`);
    expect(r.stderr.length).toBeLessThan(1000);
  });

  it('names --test for an observation no battery lists, as FHIR import does', async () => {
    const s = await server();
    await writeFile(
      join(s.dir, 'k.hl7'),
      'MSH|^~\\&|L||||1||MFN^M08|1|P|2.5.1\rMFE|MAD|1||1|CWE\rOM1|1|2823-3^K^LN|NM\r',
    );
    const r = await s.cli(['measures', 'import', 'k.hl7']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'k.hl7 line 2 (K): test: no battery (OM5) names this observation as a member; give --test ID',
    );
    expect((await s.cli(['measures', 'import', 'k.hl7', '--test', 'tst_k'])).code).toBe(0);
  });

  it('shows the control bytes of a hostile file escaped, in lint and import alike', async () => {
    const s = await server();
    // An OSC sequence (ESC ] 0 ; title BEL) in an unknown escape and in MSH-9: a terminal would retitle itself.
    const osc = '\u001b]0;owned\u0007';
    await writeFile(
      join(s.dir, 'e.hl7'),
      `MSH|^~\\&|L||||1||MFN^M08|1|P|2.5.1\rMFE|MAD|1||1|CWE\rOM1|1|X^Y\\Z${osc}\\|NM\r`,
    );
    await writeFile(join(s.dir, 't.hl7'), `MSH|^~\\&|L||||1||AD${osc}^A01|1|P|2.5.1\rPID|1\r`);
    for (const args of [
      ['measures', 'lint', 'e.hl7', '--test', 't'],
      ['measures', 'import', 'e.hl7', '--test', 't'],
      ['measures', 'lint', 't.hl7'],
    ]) {
      const r = await s.cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr + r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
      expect(r.stderr).toContain('\\u001b]0;owned\\u0007');
    }
  });
});
