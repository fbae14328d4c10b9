// Covers: src/formats/hl7/ src/core/unheld.ts
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// HL7's own RFR examples (2.A.64) read as HL7 says: spaces around a component are not data, a range for one
// race (RFR-6) is never held as a range for every male, and RFR-3's fractions of a year are the days, weeks
// and months HL7 lists for them. Expected answers from the spec's text.

const FIXTURE = new URL('../fixtures/hl7/rfr-examples.hl7', import.meta.url);
type Rec = Record<string, unknown>;
const DAY = 1 / 365.25;

async function read(flags: string[]) {
  const t = await cliOnServer({ events: false });
  await writeFile(join(t.dir, 'rfr.hl7'), await readFile(FIXTURE));
  const r = await t.cli(['measures', 'import', 'rfr.hl7', '--test', 'tst_rfr', ...flags]);
  const list = (await t.s.call('GET', '/diagnostic-measures')).body as Rec[];
  const ranges = (code: string) =>
    ((list.find((m) => m.hl7IdentifierCod === code)?.referenceRanges ?? []) as Rec[]).map(({ id: _id, ...x }) => x);
  return { ...t, r, list, ranges };
}

describe("HL7's RFR examples", () => {
  it('stops on the race example by default, naming each of its four ranges', async () => {
    const { r, list } = await read([]);
    expect(r.code).toBe(2);
    for (const n of [1, 2, 3, 4])
      expect(r.stderr).toContain(`segment 11 (OM2-6) repetition ${n}: a range only for race or subspecies (RFR-6) "B"`);
    expect(list).toEqual([]);
  });

  it('reads sexes with spaces around & and ages in the fractions RFR-3 lists; race ranges left out', async () => {
    const { r, ranges, cli } = await read(['--leave-out-ranges']);
    expect(r.code, r.stderr).toBe(0);
    expect(ranges('1751-7')).toEqual([{ min: 3, max: 5.5, minPrecision: 1, sex: 'all' }]);
    // `12.0 & 16`: 12.0 to 16 for females, as HL7 writes it, not refused.
    expect(ranges('718-7')).toEqual([
      { min: 13.5, max: 18, sex: 'male' },
      { min: 12, max: 16, minPrecision: 1, sex: 'female' },
    ]);
    // The race example's four ranges are all for race B: the measure is held without them, each named.
    expect(ranges('20509-6')).toEqual([]);
    expect(r.stderr.match(/"B": range left out/g)).toHaveLength(4);
    // 0.0027300 is 1 d, 0.01920 1 wk (7 d), 0.0830 1 mo.
    expect(ranges('1975-2')).toEqual([
      { min: 1, max: 6, minPrecision: 1, maxPrecision: 1, sex: 'all', ageMin: 0, ageMax: DAY },
      { min: 1.4, max: 8.7, sex: 'all', ageMin: DAY, ageMax: 7 * DAY },
      { min: 0.3, max: 1.2, sex: 'all', ageMin: 7 * DAY, ageMax: 1 / 12 },
    ]);
    const shown = await cli(['measures', 'list', '-o', 'wide']);
    expect(shown.stdout).not.toContain('0.00273');
    expect(shown.stdout).not.toContain('0.0192');
  });

  it('names a unit field holding a number or range, and an OM2-3 that is no length.decimals mask', async () => {
    const { dir, cli } = await cliOnServer({ events: false });
    // OM2-2 and OM2-4 are CWE units; OM2-3 is NM, length.decimals (HL7 v2.5.1 8.8.4.3: 4.1 displays XX.X).
    const text = [
      'MSH|^~\\&|L||||1||MFN^M08|1|P|2.5.1',
      'MFE|MAD|1||1|CWE',
      'OM1|1|2823-3^Potassium^LN|NM',
      'OM2|1|3.5-5.5|10E3/uL|10|||3.5&5.5',
      'MFE|MAD|2||2|CWE',
      'OM1|2|2951-2^Sodium^LN|NM',
      'OM2|2|mmol/L|x.y|||136&145',
    ].join('\r');
    await writeFile(join(dir, 'u.hl7'), text);
    const r = await cli(['measures', 'lint', 'u.hl7', '--test', 't']);
    expect(r.code).toBe(2);
    const unit = 'is a number or a range, not a unit: ranges go in OM2-6 and OM2-7';
    expect(r.stderr).toContain(`(Potassium): segment 4 (OM2-2): "3.5-5.5" ${unit}`);
    expect(r.stderr).toContain(`(Potassium): segment 4 (OM2-4): "10" ${unit}`);
    const mask = 'is not a precision mask: write length.decimals (4.1 shows XX.X)';
    expect(r.stderr).toContain(`(Potassium): segment 4 (OM2-3): "10E3/uL" ${mask}`);
    expect(r.stderr).toContain(`(Sodium): segment 7 (OM2-3): "x.y" ${mask}`);
  });

  it('reads \\Xhh\\ in the character set MSH-18 names; bytes that are no text in it are an error', async () => {
    const { dir, cli } = await cliOnServer({ events: false });
    // HL7 v2.5.1 2.7.3: \Xdddd…\ is hexadecimal data; MSH-18 (table 0211) names the character set, empty
    // meaning ASCII. In ISO 8859/1, E9 is é; 0x80–0x9F are C1 controls, no text; C3 A9 is é in UTF-8.
    const file = (charset: string, name: string) =>
      [`MSH|^~\\&|L||||1||MFN^M08|1|P|2.5.1||||||${charset}`, 'MFE|MAD|1||1|CWE', `OM1|1|1751-7^${name}^LN|NM`].join(
        '\r',
      );
    const lint = async (charset: string, name: string) => {
      await writeFile(join(dir, 'x.hl7'), file(charset, name));
      return cli(['measures', 'lint', 'x.hl7', '--test', 't', '-o', 'json']);
    };
    const ok = await lint('8859/1', 'Prot\\XE9\\ine');
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).records[0].name).toBe('Protéine');
    const utf8 = await lint('UNICODE UTF-8', 'Prot\\XC3A9\\ine');
    expect(JSON.parse(utf8.stdout).records[0].name).toBe('Protéine');
    for (const [charset, name, what] of [
      ['', 'Prot\\XE9\\ine', 'ASCII (MSH-18 is empty)'],
      ['8859/1', 'Prot\\X85\\ine', '8859/1'],
      ['UNICODE UTF-8', 'Prot\\XC3\\ine', 'UNICODE UTF-8'],
    ]) {
      const bad = await lint(charset, name);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain(`segment 3 (OM1-2): the escape \\X`);
      expect(bad.stderr).toContain(`holds bytes that are no text in ${what}`);
      expect(bad.stderr).not.toContain('\uFFFD');
    }
  });
});
