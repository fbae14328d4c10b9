// Covers: src/formats/hl7/write.ts src/formats/hl7/syntax.ts
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { plainDecimal, precisionOf } from '../../src/core/number.js';
import { cliOnServer } from '../helpers/server.js';

// The HL7 export read by a second, independent HL7 v2 parser: python-hl7 (Debian's python3-hl7, run by
// Debian's own python3, which .ci/run installs). It must read back the codes, names, units, precisions,
// ranges, sexes, ages and limits the server holds, every escaped value unescaped to the same text.

const READER = fileURLToPath(new URL('../fixtures/hl7/read.py', import.meta.url));
const SAMPLE = new URL('../../docs/samples/compendium.hl7', import.meta.url);
type Rec = Record<string, unknown>;
type Rfr = { low: string; high: string; sex: string; ageLow: string; ageHigh: string };
const SEX: Record<string, string> = { all: '', male: 'M', female: 'F' };

/** A bound as the other parser must have read it: the value's digits at its precision. */
const bound = (v: unknown, p: unknown) => (typeof v === 'number' ? plainDecimal(v, precisionOf(v, p)) : '');
/** An age in years, compared to 15 significant digits (what the export promises). */
const age = (text: string) => (text === '' ? undefined : Number(Number(text).toPrecision(15)));
const years = (v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(15)) : undefined);

function ranges(list: Rec[] | undefined): Rfr[] {
  return (list ?? []).map((r) => ({
    low: bound(r.min, r.minPrecision),
    high: bound(r.max, r.maxPrecision),
    sex: SEX[String(r.sex ?? 'all')],
    ageLow: r.ageMin === undefined ? '' : String(years(r.ageMin)),
    ageHigh: r.ageMax === undefined ? '' : String(years(r.ageMax)),
  }));
}

describe('measures export --format hl7, read by python-hl7', () => {
  it('gives back every code, name, unit, precision, range, sex, age and limit', async () => {
    const s = await cliOnServer({ events: false });
    await writeFile(join(s.dir, 'compendium.hl7'), await readFile(SAMPLE));
    expect((await s.cli(['measures', 'import', 'compendium.hl7'])).code).toBe(0);
    const out = await s.cli(['measures', 'export', '--format', 'hl7', '--out', 'export.hl7']);
    expect(out.code, out.stderr).toBe(0);
    const list = JSON.parse((await s.cli(['measures', 'list', '-o', 'json'])).stdout) as Rec[];
    const read = await execa('/usr/bin/python3', [READER, join(s.dir, 'export.hl7')]);
    const hl7 = JSON.parse(read.stdout) as {
      types: string[];
      observations: (Rec & { reference?: Rfr[]; critical?: Rfr[] })[];
      batteries: { code: string; members: string[] }[];
    };
    expect(hl7.types).toEqual(['MFN^M08^MFN_M08', 'MFN^M10^MFN_M10']);
    expect(hl7.observations).toHaveLength(list.length);
    for (const m of list) {
      const o = hl7.observations.find((x) => x.code === m.hl7IdentifierCod)!;
      expect(o, String(m.name)).toBeDefined();
      expect(o.name).toBe(m.name);
      expect(o.system).toBe(m.hl7IdentifierSys);
      expect(o.description).toBe(m.description ?? '');
      expect(o.type).toBe({ numeric: 'NM', posneg: 'CWE', multiplechoice: 'CWE' }[String(m.type)]);
      if (m.type === 'numeric') {
        expect(o.unit).toBe(m.unit);
        expect(o.siunit).toBe(m.siunit ?? '');
        const norm = (l: Rfr[]) =>
          l.map((r) => ({ ...r, ageLow: String(age(r.ageLow) ?? ''), ageHigh: String(age(r.ageHigh) ?? '') }));
        expect(norm(o.reference ?? [])).toEqual(ranges(m.referenceRanges as Rec[]));
        expect(norm(o.critical ?? [])).toEqual(ranges(m.panicRanges as Rec[]));
      }
      if (m.type === 'multiplechoice') expect(o.answers).toEqual(m.choices);
      if (m.type === 'posneg') expect(o.answers).toEqual(['Positive', 'Negative']);
      const battery = hl7.batteries.find((b) => b.code === m.test)!;
      expect(battery.members).toContain(m.hl7IdentifierCod);
    }
    // The escaped names and answers came back as the lab wrote them.
    expect(hl7.observations.map((o) => o.name)).toContain('Color & clarity of Urine');
    expect(hl7.observations.flatMap((o) => (o.answers as string[]) ?? [])).toContain('Red | brown');
  });

  it('reads a description holding line separators and a forged MSH as one field of its own observation', async () => {
    const s = await cliOnServer({ events: false });
    // python-hl7 splits a batch with str.splitlines: at U+2028, U+2029, U+0085, VT and FF as at CR and LF.
    const forged = '\u2028MSH!#$%@!!!!!!!MFN#M10#MFN_M10!1!P!2.5.1\u2029MFE!MAD!1\u0085OM1!1\u000bX\u000c';
    const measure = (name: string, code: string, description?: string) => ({
      test: 'tst_x',
      name,
      hl7IdentifierCod: code,
      hl7IdentifierSys: 'LN',
      type: 'numeric',
      unit: 'mmol/L',
      referenceRanges: [{ min: 1, max: 2 }],
      ...(description === undefined ? {} : { description }),
    });
    await writeFile(
      join(s.dir, 'm.json'),
      JSON.stringify([measure('Alpha', '1-1'), measure('Beta', '2-2', forged), measure('Gamma', '3-3')]),
    );
    expect((await s.cli(['measures', 'import', 'm.json'])).code).toBe(0);
    const out = await s.cli(['measures', 'export', '--format', 'hl7', '--out', 'export.hl7']);
    expect(out.code, out.stderr).toBe(0);
    const read = await execa('/usr/bin/python3', [READER, join(s.dir, 'export.hl7')]);
    const hl7 = JSON.parse(read.stdout) as { types: string[]; observations: Rec[] };
    expect(hl7.types).toEqual(['MFN^M08^MFN_M08', 'MFN^M10^MFN_M10']);
    expect(hl7.observations.map((o) => [o.name, o.unit, (o.reference as Rfr[]).length])).toEqual([
      ['Alpha', 'mmol/L', 1],
      ['Beta', 'mmol/L', 1],
      ['Gamma', 'mmol/L', 1],
    ]);
    // python-hl7 reads \Xhh..\ a character per byte (it does not switch character sets, util.py): the bytes
    // are the description's UTF-8, every one of them back.
    const beta = hl7.observations.find((o) => o.name === 'Beta')!;
    expect(Buffer.from(String(beta.description), 'latin1').toString('utf8')).toBe(forged);
    // And our own reader gives the description back as it was.
    await writeFile(join(s.dir, 'again.hl7'), await readFile(join(s.dir, 'export.hl7')));
    const again = await s.cli(['measures', 'import', 'again.hl7', '--dry-run', '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ create: 0, update: 0, unchanged: 3 });
  });
});

describe("HL7's RFR examples and our qualified ranges, exported and read by python-hl7", () => {
  // test/fixtures/hl7/rfr-examples.hl7 (HL7 v2's own RFR examples, 2.A.64) and qualified-ranges.hl7 (ranges for
  // a condition, a race and a gestational age, RFR-7, RFR-6 and RFR-4), imported with those ranges left out,
  // then exported: python-hl7 must read each observation as the source's text gives it, the same code, name,
  // system, type and unit as python-hl7 reads in the source, and each range HL7 wrote for a sex and ages.
  const fixture = (f: string) => fileURLToPath(new URL(`../fixtures/hl7/${f}`, import.meta.url));
  type Obs = Rec & { code: string; reference: Rfr[] };
  const readBack = async (file: string) =>
    JSON.parse((await execa('/usr/bin/python3', [READER, file])).stdout) as {
      types: string[];
      observations: Obs[];
      batteries: { code: string; members: string[] }[];
    };
  const range = (low: string, high: string, sex = '', ageLow = '', ageHigh = ''): Rfr => ({
    low,
    high,
    sex,
    ageLow,
    ageHigh,
  });

  it('gives back each observation, and each range for a sex and ages as HL7 wrote it', async () => {
    const s = await cliOnServer({ events: false });
    for (const [file, test] of [
      ['rfr-examples.hl7', 'tst_rfr'],
      ['qualified-ranges.hl7', 'tst_q'],
    ]) {
      await writeFile(join(s.dir, file), await readFile(fixture(file)));
      const r = await s.cli(['measures', 'import', file, '--test', test!, '--leave-out-ranges']);
      expect(r.code, r.stderr).toBe(0);
    }
    const out = await s.cli(['measures', 'export', '--format', 'hl7', '--out', 'export.hl7']);
    expect(out.code, out.stderr).toBe(0);
    const hl7 = await readBack(join(s.dir, 'export.hl7'));
    expect(hl7.types).toEqual(['MFN^M08^MFN_M08', 'MFN^M10^MFN_M10']);
    const sources = [...(await readBack(fixture('rfr-examples.hl7'))).observations];
    sources.push(...(await readBack(fixture('qualified-ranges.hl7'))).observations);
    expect(hl7.observations.map((o) => o.code).sort()).toEqual(sources.map((o) => o.code).sort());
    const byCode = new Map(hl7.observations.map((o) => [o.code, o]));
    for (const source of sources) {
      const o = byCode.get(source.code)!;
      for (const k of ['name', 'system', 'type', 'unit']) expect(o[k], `${source.code} ${k}`).toBe(source[k]);
    }
    const ranges = (code: string) => byCode.get(code)!.reference;
    // HL7's examples: albumin 3.0&5.5; hemoglobin 13.5&18^M~12.0 & 16^F, the spaces around & not data.
    expect(ranges('1751-7')).toEqual([range('3.0', '5.5')]);
    expect(ranges('718-7')).toEqual([range('13.5', '18', 'M'), range('12.0', '16', 'F')]);
    // The "concocted example"'s four ranges are each for race B (RFR-6): left out, none held for every male.
    expect(ranges('20509-6')).toEqual([]);
    // Our qualified ranges: only each measure's range for everyone of its sex and ages (RFR-3 in years).
    expect(ranges('3016-3')).toEqual([range('0.4', '4.0', '', '18', '120')]);
    expect(ranges('2160-0')).toEqual([range('0.7', '1.3', 'M', '18', '120')]);
    expect(ranges('2345-7')).toEqual([range('70', '99')]);
    // Neonatal bilirubin: RFR-3's 0.0027300, 0.01920 and 0.0830 are 1 day, 1 week and 1 month, written back in
    // years (UCUM's year of 365.25 days, a month its twelfth).
    const bili = ranges('1975-2');
    expect(bili.map((x) => [x.low, x.high, x.sex])).toEqual([
      ['1.0', '6.0', ''],
      ['1.4', '8.7', ''],
      ['0.3', '1.2', ''],
    ]);
    const ages = bili.map((x) => [Number(x.ageLow) * 365.25, Number(x.ageHigh) * 365.25]);
    const days = [
      [0, 1],
      [1, 7],
      [7, 365.25 / 12],
    ];
    for (const [i, d] of ages.flat().entries()) expect(d).toBeCloseTo(days.flat()[i]!, 9);
    // Each test is a battery (MFN^M10 OM5-2) of its observations.
    const members = Object.fromEntries(hl7.batteries.map((b) => [b.code, [...b.members].sort()]));
    expect(members).toEqual({
      tst_rfr: ['1751-7', '1975-2', '20509-6', '718-7'],
      tst_q: ['2160-0', '2345-7', '3016-3'],
    });
  });
});
