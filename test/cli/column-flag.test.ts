// Covers: src/formats/csv/columns.ts src/formats/csv/cells.ts src/formats/csv/catalog.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// --column as a careless lab admin gives it: one header read two ways (the later flag silently won, so a
// column became the unit or vanished), a field misspelt, a value without its =, an unheaded column mapped.
// Each is named in one pass, with the field meant where it is near one, and nothing is read. A --column
// naming no header of the sheet (a misspelt one) is refused too, as a filter that names nothing: the column
// it meant would be read as its own header says.

describe('--column given carelessly', () => {
  it('names every wrong value at once: a header read two ways, a misspelt field, a value without =', async () => {
    const { s, dir, cli } = await cliOnServer({ events: false });
    await writeFile(join(dir, 'x.csv'), 'Panel,Parameter,Units,Low,High,Comments\ntst_c,Glucose,mg/dL,70,99,fasting\n');
    const flags = ['Parameter=name', 'parameter=unit', 'Comments=nmae', 'Units', '=unit'].flatMap((c) => [
      '--column',
      c,
    ]);
    const r = await cli(['measures', 'import', 'x.csv', ...flags]);
    expect(r.code).toBe(2);
    for (const text of [
      '--column "parameter=unit": the column is already read another way (--column "Parameter=name"); keep one',
      '--column "Comments=nmae": nmae is no column; did you mean name? (clinadmin help csv)',
      '--column "Units": write HEADER=FIELD (Analyte=name), or HEADER= to leave it out',
      '--column "=unit": the columns without a header can only be left out (--column "="); head the one to read',
    ])
      expect(r.stderr).toContain(text);
    const left = await cli(['measures', 'import', 'x.csv', '--column', 'Parameter=name', '--column', 'Parameter=']);
    expect(left.code).toBe(2);
    expect(left.stderr).toContain('--column "Parameter=": the column is already read another way');
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
    // The same value twice says one thing, and imports.
    const twice = ['Parameter=name', 'Parameter=name', 'Comments='].flatMap((c) => ['--column', c]);
    const ok = await cli(['measures', 'import', 'x.csv', ...twice]);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('refuses a --column naming no header of the sheet, with the header nearest it', async () => {
    const { s, dir, cli } = await cliOnServer({ events: false });
    // A sheet whose Low and High are its critical limits: misspelt maps would read them as the normal range.
    await writeFile(join(dir, 'c.csv'), 'Panel,Analyte,Units,Low,High\ntst_c,Potassium,mmol/L,2.5,6.5\n');
    const flags = ['Lw=criticalLow', 'High=criticalHigh', '='].flatMap((c) => ['--column', c]);
    const r = await cli(['measures', 'import', 'c.csv', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('c.csv:1: --column "Lw=criticalLow" names no column of the sheet; did you mean "Low"?');
    expect(r.stderr).toContain('c.csv:1: --column "=" names no column of the sheet (it has none without a header)');
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });

  it('echoes a header’s and a cell’s terminal escapes as text, never as bytes a terminal runs', async () => {
    const { dir, cli } = await cliOnServer({ events: false });
    const title = '\x1b]0;owned\x07';
    const header = `Panel,Analyte,Units,${title}Low\x1b[8m,High,Reference Range`;
    await writeFile(join(dir, 'e.csv'), `${header}\ntst_c,Hb,g/L,,,"Male = 1-2\x1b[2J\nM = 3-4\x9b"\n`);
    const r = await cli(['measures', 'lint', 'e.csv', '--column', `${title}Lw=`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('e.csv:1: --column "\\u001b]0;owned\\u0007Lw=" names no column of the sheet');
    expect(r.stderr).toContain('e.csv:1:4: unknown column "\\u001b]0;owned\\u0007Low\\u001b[8m"');
    expect(r.stderr).toContain('referenceRange: the cell gives male two lines (1 and 2)');
    expect(r.stderr).not.toMatch(/[\x07\x1b\x9b]/);
  });

  it('warns of each range column left out that no other column gives, and imports the ranges so read', async () => {
    const { s, dir, cli } = await cliOnServer({ events: false });
    const head = 'Panel,Analyte,Units,Low,High,Gender,Reference range,Comments';
    await writeFile(join(dir, 'w.csv'), `${head}\ntst_c,Hb,g/L,135,175,male,135-175,adult\n`);
    // Low and Gender left out: the sheet's male 135-175 g/L would be read as 175 and below, for everyone.
    const drop = ['Low=', 'Gender=', 'Reference range=', 'Comments='].flatMap((c) => ['--column', c]);
    const lint = await cli(['measures', 'lint', 'w.csv', ...drop]);
    expect(lint.code, lint.stderr).toBe(0);
    const warnings = lint.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toEqual([
      'warning: w.csv:1:4: --column leaves "Low" out, and no other column gives min: the ranges are read without it',
      'warning: w.csv:1:6: --column leaves "Gender" out, and no other column gives sex: the ranges are read without it',
      // High gives the cell's max, but nothing its min.
      'warning: w.csv:1:7: --column leaves "Reference range" out, and no other column gives referenceRange: ' +
        'the ranges are read without it',
    ]);
    expect((await cli(['measures', 'lint', 'w.csv', '--strict', ...drop])).code).toBe(1);
    const r = await cli(['measures', 'import', 'w.csv', ...drop]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('w.csv:1:4: --column leaves "Low" out');
    const [m] = (await s.call('GET', '/diagnostic-measures')).body as Record<string, unknown>[];
    expect(m.referenceRanges).toEqual([{ id: expect.any(String), max: 175, sex: 'all' }]);
    // The range cell stands in for Low and High, and Low and High for the cell: nothing is read wider.
    for (const flags of [
      ['Low=', 'High=', 'Comments='],
      ['Reference range=', 'Comments='],
    ]) {
      const given = flags.flatMap((c) => ['--column', c]);
      const quiet = await cli(['measures', 'lint', 'w.csv', ...given]);
      expect(quiet.code, quiet.stderr).toBe(0);
      expect(quiet.stderr).not.toContain('warning');
    }
    // A sheet with a Low column but no High: the range cell was its only max.
    await writeFile(join(dir, 'l.csv'), 'Panel,Analyte,Units,Low,Reference range\ntst_c,Hb,g/L,,135-175\n');
    const lone = await cli(['measures', 'lint', 'l.csv', '--column', 'Reference range=']);
    expect(lone.stderr).toContain(
      'warning: l.csv:1:5: --column leaves "Reference range" out, and no other column gives referenceRange',
    );
  });

  it('maps headers holding = behind a byte-order mark, each read to its last =', async () => {
    const { s, dir, cli } = await cliOnServer({ events: false });
    const head = '\ufeff"Test name (<=60 ch)",Panel,Units,Low,High,Flag (H=high; L=low)';
    await writeFile(join(dir, 'b.csv'), `${head}\r\nGlucose,tst_c,mg/dL,70,99,H\r\n`);
    const flags = ['Test name (<=60 ch)=name', 'Flag (H=high; L=low)='].flatMap((c) => ['--column', c]);
    const r = await cli(['measures', 'import', 'b.csv', ...flags]);
    expect(r.code, r.stderr).toBe(0);
    const [m] = (await s.call('GET', '/diagnostic-measures')).body as Record<string, unknown>[];
    expect(m).toMatchObject({ test: 'tst_c', name: 'Glucose', unit: 'mg/dL', referenceRanges: [{ min: 70, max: 99 }] });
  });
});
