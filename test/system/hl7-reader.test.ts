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
});
