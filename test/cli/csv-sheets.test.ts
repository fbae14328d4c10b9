// Covers: src/formats/csv/ src/commands/resource/sync-run.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// Sheets as labs save them: `#` comment lines before the header and between rows (as exports stamp their
// origin and date), and the headers LIS exports use (OpenELIS's testName and unitOfMeasure, low_value and
// high_value; a hospital's "Lab Test"). A row is still named by the line an editor shows it on.

type Rec = Record<string, unknown>;

describe('sheets as labs save them', () => {
  it('passes over # comment lines, naming rows by their own lines, and knows the export headers', async () => {
    const { s, dir, cli } = await cliOnServer({ events: false });
    const sheet = (sodiumLow: string) =>
      [
        '# Exported from the LIS',
        '# 2026-11-20',
        'test,testName,unitOfMeasure,low_value,high_value',
        '# chemistry',
        'tst_chem,Glucose,mg/dL,70,99',
        '',
        '# electrolytes',
        'tst_chem,"Potassium",mmol/L,3.5,5.1',
        `tst_chem,Sodium,mmol/L,${sodiumLow},145`,
        '',
      ].join('\r\n');
    await writeFile(join(dir, 'lis.csv'), sheet('bad'));
    const bad = await cli(['measures', 'import', 'lis.csv']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('lis.csv:9:4 (Sodium): min: must be a number');
    await writeFile(join(dir, 'lis.csv'), sheet('136'));
    const r = await cli(['measures', 'import', 'lis.csv']);
    expect(r.code, r.stderr).toBe(0);
    const list = ((await s.call('GET', '/diagnostic-measures')).body as Rec[]).map((m) => [
      m.name,
      m.unit,
      (m.referenceRanges as Rec[]).map((x) => [x.min, x.max]),
    ]);
    expect(list.sort()).toEqual([
      ['Glucose', 'mg/dL', [[70, 99]]],
      ['Potassium', 'mmol/L', [[3.5, 5.1]]],
      ['Sodium', 'mmol/L', [[136, 145]]],
    ]);
    await writeFile(join(dir, 'lab.csv'), 'Panel,Lab Test,Units,Low,High\ntst_chem,Glucose,mg/dL,70,99\n');
    const lab = await cli(['measures', 'lint', 'lab.csv']);
    expect(lab.code, lab.stderr).toBe(0);
  });

  it('takes the test of a sheet without a test column from --test, and names the flag without one', async () => {
    const { s, dir, cli } = await cliOnServer({ events: false });
    await writeFile(join(dir, 'n.csv'), 'Analyte,Units,Low,High\nGlucose,mg/dL,70,99\nSodium,mmol/L,136,145\n');
    const none = await cli(['measures', 'import', 'n.csv']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('n.csv line 2 (Glucose): test: the sheet has no test column; give --test ID');
    const r = await cli(['measures', 'import', 'n.csv', '--test', 'tst_chem']);
    expect(r.code, r.stderr).toBe(0);
    const list = (await s.call('GET', '/diagnostic-measures')).body as Rec[];
    expect(list.map((m) => `${m.test} ${m.name}`).sort()).toEqual(['tst_chem Glucose', 'tst_chem Sodium']);
  });

  it('fills a range from one Reference Range cell in the forms labs write, its unit checked', async () => {
    const { s, dir, cli } = await cliOnServer({ events: false });
    const rows = [
      'Panel,Analyte,Units,Reference Range',
      'tst_c,Potassium,mmol/L,3.5-5.1',
      'tst_c,Sodium,mmol/L,"136 – 145 mmol/L"',
      'tst_c,CRP,mg/L,≤ 5.0',
      'tst_c,eGFR,mL/min,≥ 60',
    ];
    await writeFile(
      join(dir, 'r.csv'),
      [...rows, 'tst_c,Urea,mmol/L,2.5-7.8 mg/dL', 'tst_c,Lipase,U/L,<60', ''].join('\n'),
    );
    const bad = await cli(['measures', 'lint', 'r.csv']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'r.csv:6:4 (Urea): referenceRange: "2.5-7.8 mg/dL" is in mg/dL, not the measure\'s unit mmol/L',
    );
    // "<60" leaves 60 out; a range's max includes its end, so holding it would move the limit: refused.
    expect(bad.stderr).toContain('r.csv:7:4 (Lipase): referenceRange: "<60" leaves 60 itself out');
    await writeFile(join(dir, 'r.csv'), [...rows, ''].join('\n'));
    const r = await cli(['measures', 'import', 'r.csv']);
    expect(r.code, r.stderr).toBe(0);
    const byName = Object.fromEntries(
      ((await s.call('GET', '/diagnostic-measures')).body as Rec[]).map((m) => [
        m.name,
        (m.referenceRanges as Rec[]).map(({ id: _id, ...x }) => x),
      ]),
    );
    expect(byName).toEqual({
      Potassium: [{ min: 3.5, max: 5.1, sex: 'all' }],
      Sodium: [{ min: 136, max: 145, sex: 'all' }],
      CRP: [{ max: 5, maxPrecision: 1, sex: 'all' }],
      eGFR: [{ min: 60, sex: 'all' }],
    });
  });

  it('reads a Reference range cell with a line for each sex as a range for each, the row naming none', async () => {
    const { s, dir, cli } = await cliOnServer({ events: false });
    const cell = '"Male = 135-175 g/L,\nFemale = 120-160 g/L"';
    await writeFile(join(dir, 's.csv'), `Panel,Analyte,Units,Sex,Reference Range\ntst_c,Hemoglobin,g/L,M,${cell}\n`);
    const bad = await cli(['measures', 'lint', 's.csv']);
    expect(bad.code).toBe(2);
    const both = "the cell gives each sex its range; leave the row's sex empty";
    expect(bad.stderr).toContain(`s.csv:2:5 (Hemoglobin): referenceRange: ${both}`);
    await writeFile(join(dir, 's.csv'), `Panel,Analyte,Units,Sex,Reference Range\ntst_c,Hemoglobin,g/L,,${cell}\n`);
    const r = await cli(['measures', 'import', 's.csv']);
    expect(r.code, r.stderr).toBe(0);
    const [m] = (await s.call('GET', '/diagnostic-measures')).body as Rec[];
    expect((m!.referenceRanges as Rec[]).map(({ id: _id, ...x }) => x)).toEqual([
      { min: 135, max: 175, sex: 'male' },
      { min: 120, max: 160, sex: 'female' },
    ]);
  });

  it('--column reads a header as a field or leaves a column out, so a sheet imports unedited', async () => {
    const { s, dir, cli } = await cliOnServer({ events: false });
    await writeFile(join(dir, 'x.csv'), 'Panel,Parameter,Units,Low,High,Comments\ntst_c,Glucose,mg/dL,70,99,fasting\n');
    const plain = await cli(['measures', 'lint', 'x.csv']);
    expect(plain.code).toBe(2);
    // Both unknown columns are listed together.
    expect(plain.stderr).toContain('x.csv:1:2: unknown column "Parameter"');
    expect(plain.stderr).toContain('x.csv:1:6: unknown column "Comments"');
    const flags = ['--column', 'Parameter=name', '--column', 'Comments='];
    const r = await cli(['measures', 'import', 'x.csv', ...flags]);
    expect(r.code, r.stderr).toBe(0);
    const [m] = (await s.call('GET', '/diagnostic-measures')).body as Rec[];
    expect(m).toMatchObject({ test: 'tst_c', name: 'Glucose', unit: 'mg/dL' });
    const bad = await cli(['measures', 'lint', 'x.csv', '--column', 'Parameter=nom']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--column "Parameter=nom": nom is no column; did you mean name? (clinadmin help csv)');
  });
});
