// Covers: src/formats/csv/cell-read.ts src/formats/csv/catalog.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// A Reference Range cell as a hostile file or a careless lab admin writes it. Expected answers are the cell as
// a lab reads it: "Male = 135-175" and "M = 120-160" are two ranges for men and none for women, which no
// measure can hold as written; a line for "All" beside a line for each sex says two things for the same people.
// Each is refused naming its row and column, never imported wider or as a second range for one sex.

type Rec = Record<string, unknown>;
const HEAD = 'Panel,Analyte,Units,Reference Range';

describe('a Reference Range cell from a hostile sheet', () => {
  it('refuses a 10 MB cell by its length, beside the sheet’s other errors, in one pass', async () => {
    const { s, dir, cli } = await cliOnServer({ events: false });
    // A run of spaces between a number and a letter: a backtracking pattern takes hours over it.
    const huge = `1-${' '.repeat(10_000_000)}a`;
    await writeFile(join(dir, 'h.csv'), `${HEAD}\ntst_c,Hemoglobin,g/L,"${huge}"\ntst_c,Potassium,mmol/L,x\n`);
    // lint reads the sheet whole, import streams it: both hold the bound.
    for (const verb of ['lint', 'import']) {
      const r = await cli(['measures', verb, 'h.csv']);
      expect(r.code, verb).toBe(2);
      expect(r.stderr).toContain('h.csv:2:4 (Hemoglobin): referenceRange: "1-');
      expect(r.stderr).toContain('(10000003 characters) is longer than a range');
      expect(r.stderr).toContain('h.csv:3:4 (Potassium): referenceRange: "x" is not a range');
    }
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });

  it('refuses a cell giving one sex two lines, or a line for neither sex, naming the line', async () => {
    const { s, dir, cli } = await cliOnServer({ events: false });
    const rows = [
      HEAD,
      'tst_c,Hemoglobin,g/L,"Male = 135-175 g/L\nM = 120-160 g/L"',
      'tst_c,Platelets,10^9/L,"Male = 135-317\r\nFemale = 157-371\r\nAll = 135-371"',
      'tst_c,Ferritin,ug/L,"Homme = 30-400\nFemale = 13-150"',
      '',
    ];
    await writeFile(join(dir, 's.csv'), rows.join('\n'));
    const r = await cli(['measures', 'import', 's.csv']);
    expect(r.code).toBe(2);
    for (const text of [
      's.csv:2:4 (Hemoglobin): referenceRange: the cell gives male two lines (1 and 2); give each sex one line',
      's.csv:4:4 (Platelets): referenceRange: the cell\'s line 3 ("All = 135-371") names neither sex',
      's.csv:7:4 (Ferritin): referenceRange: the cell\'s line 1 ("Homme = 30-400") names neither sex',
    ])
      expect(r.stderr).toContain(text);
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });

  it('names the sex whose line is wrong, and says a wrong row once', async () => {
    const { dir, cli } = await cliOnServer({ events: false });
    const rows = [
      'Panel,Analyte,Units,Range type,Reference Range',
      'tst_c,Hemoglobin,g/L,reference,"Male = 135-175 g/L\nFemale = 12.0-16.0 g/dL"',
      'tst_c,Hematocrit,%,panic,"Male = 41-53%\nFemale = 36-46%"',
      '',
    ];
    await writeFile(join(dir, 's.csv'), rows.join('\n'));
    const r = await cli(['measures', 'lint', 's.csv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      's.csv:2:5 (Hemoglobin): referenceRange (its female line): "12.0-16.0 g/dL" is in g/dL, ' +
        "not the measure's unit g/L",
    );
    const panic = 's.csv:4:5 (Hematocrit): referenceRange: a reference range cell stands on a reference row';
    expect(r.stderr.split(panic).length - 1).toBe(1);
  });

  it('reads each sex’s line as the lab writes it: M= or F:, any case, CR line ends, a trailing comma', async () => {
    const { s, dir, cli } = await cliOnServer({ events: false });
    await writeFile(join(dir, 's.csv'), `${HEAD}\rtst_c,Hemoglobin,g/L,"m=135-175,\rf: 120-160"\r`);
    const r = await cli(['measures', 'import', 's.csv']);
    expect(r.code, r.stderr).toBe(0);
    const [m] = (await s.call('GET', '/diagnostic-measures')).body as Rec[];
    expect((m!.referenceRanges as Rec[]).map(({ id: _id, ...x }) => x)).toEqual([
      { min: 135, max: 175, sex: 'male' },
      { min: 120, max: 160, sex: 'female' },
    ]);
  });

  it('reads ×10⁹/L as Excel users type it, and X 10^12/L, as the power of ten, and refuses another power', async () => {
    const { s, dir, cli } = await cliOnServer({ events: false });
    const rows = [
      HEAD,
      'tst_c,White Blood Cell Count,10^9/L,3.4-9.6 ×10⁹/L',
      'tst_c,Platelet Count,10^9/L,150-400 × 10⁹/L',
      'tst_c,Neutrophil Count,10^9/L,1.56-6.45 x10^9/L',
      'tst_c,Red Blood Cell Count,10^12/L,4.35-5.65 X 10^12/L',
    ];
    await writeFile(join(dir, 'u.csv'), [...rows, 'tst_c,Lymphocyte Count,10^9/L,0.95-3.07 ×10⁶/L', ''].join('\n'));
    const bad = await cli(['measures', 'import', 'u.csv']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'u.csv:6:4 (Lymphocyte Count): referenceRange: "0.95-3.07 ×10⁶/L" is in ×10⁶/L, not the measure\'s unit 10^9/L',
    );
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
    await writeFile(join(dir, 'u.csv'), [...rows, ''].join('\n'));
    const r = await cli(['measures', 'import', 'u.csv']);
    expect(r.code, r.stderr).toBe(0);
    const held = ((await s.call('GET', '/diagnostic-measures')).body as Rec[]).map((m) => [
      m.name,
      m.unit,
      (m.referenceRanges as Rec[]).map((x) => [x.min, x.max]),
    ]);
    expect(held.sort()).toEqual([
      ['Neutrophil Count', '10^9/L', [[1.56, 6.45]]],
      ['Platelet Count', '10^9/L', [[150, 400]]],
      ['Red Blood Cell Count', '10^12/L', [[4.35, 5.65]]],
      ['White Blood Cell Count', '10^9/L', [[3.4, 9.6]]],
    ]);
  });

  it('refuses a ; sheet’s 150.000, which the locales writing ; read as 150000, whichever column holds it', async () => {
    const { s, dir, cli } = await cliOnServer({ events: false });
    // German and Spanish labs write platelets as 150.000-450.000 /µL, Excel's ; sheet keeping the grouping point.
    const sheet = (cell: string, low: string) =>
      [
        'Panel;Analyte;Units;Reference Range;Low;High',
        `tst_c;Platelets;/uL;${cell};;`,
        `tst_c;Leukocytes;/uL;;${low};11000`,
      ]
        .map((row) => `${row}\r\n`)
        .join('');
    await writeFile(join(dir, 'p.csv'), sheet('150.000-450.000 /uL', '4.000'));
    const r = await cli(['measures', 'import', 'p.csv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'p.csv:2:4 (Platelets): referenceRange: "150.000" is 150000 where a point groups thousands',
    );
    expect(r.stderr).toContain('p.csv:3:5 (Leukocytes): min: "4.000" is 4000 where a point groups thousands');
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
    await writeFile(join(dir, 'p.csv'), sheet('150000-450000 /uL', '4000'));
    const ok = await cli(['measures', 'import', 'p.csv']);
    expect(ok.code, ok.stderr).toBe(0);
    const held = ((await s.call('GET', '/diagnostic-measures')).body as Rec[]).map((m) => [
      m.name,
      (m.referenceRanges as Rec[]).map((x) => [x.min, x.max]),
    ]);
    expect(held.sort()).toEqual([
      ['Leukocytes', [[4000, 11000]]],
      ['Platelets', [[150000, 450000]]],
    ]);
  });

  it('says a unit given only on a later row is not given yet, not that the sheet has no unit column', async () => {
    const { s, dir, cli } = await cliOnServer({ events: false });
    const rows = [
      'Panel,Analyte,Units,Sex,Reference Range',
      'tst_c,Hemoglobin,,M,135-175 g/L',
      'tst_c,Hemoglobin,g/L,F,120-160 g/L',
      '',
    ];
    await writeFile(join(dir, 'l.csv'), rows.join('\n'));
    await writeFile(join(dir, 'n.csv'), 'Panel,Analyte,Reference Range\ntst_c,Hemoglobin,135-175 g/L\n');
    const later = await cli(['measures', 'import', 'l.csv']);
    expect(later.code).toBe(2);
    expect(later.stderr).toContain(
      'l.csv:2:5 (Hemoglobin): referenceRange: "135-175 g/L" is in g/L, ' +
        "and the measure's unit is not given by this row; give it on the measure's first row",
    );
    const none = await cli(['measures', 'import', 'n.csv']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(
      'n.csv:2:3 (Hemoglobin): referenceRange: "135-175 g/L" is in g/L, and the measure has no unit column',
    );
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });
});
