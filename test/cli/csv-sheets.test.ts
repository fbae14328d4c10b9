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
});
