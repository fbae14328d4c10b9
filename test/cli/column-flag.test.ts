// Covers: src/formats/csv/columns.ts src/formats/csv/cells.ts src/formats/csv/catalog.ts src/formats/csv/left-out.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// --column as a careless lab admin gives it: one header read two ways (the later flag silently won, so a
// column became the unit or vanished), a field misspelt, a value without its =, an unheaded column mapped.
// Each is named in one pass, with the field meant where it is near one, and nothing is read. A --column
// naming no header of the sheet (a misspelt one) is refused too, as a filter that names nothing: the column
// it meant would be read as its own header says.

/** The warning lines of a run's stderr, in order. */
const warned = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('warning:'));

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

  it('warns of each row that fills a range column left out, where no column read on the row gives it', async () => {
    const { s, dir, cli } = await cliOnServer({ events: false });
    // Rows as labs mix them: Low and High on some, one Reference range cell on others, a panic row's critical
    // limits in Low and High, a Range type and a Gender that may say what a row without them is read as.
    const sheet = [
      'Panel,Analyte,Units,Range type,Gender,Low,High,Reference range,Critical low,Comments',
      'tst_c,Hb,g/L,reference,male,135,175,,,adult',
      'tst_c,Na,mmol/L,Reference,all,,,135-145,120,',
      'tst_c,K,mmol/L,panic,,2.5,6.5,,,',
      'tst_c,Cl,mmol/L,,,,,,,',
    ];
    await writeFile(join(dir, 'w.csv'), `${sheet.join('\n')}\n`);
    const given = (...cs: string[]) => cs.flatMap((c) => ['--column', c]);
    // Without Low and Gender, Hb's male 135-175 g/L would be 175 and below for everyone, and K's critical
    // low of 2.5 would be gone; Na gives its bounds in the range cell and says all, so it loses nothing.
    const drop = given('Low=', 'Gender=', 'Comments=');
    const lint = await cli(['measures', 'lint', 'w.csv', ...drop, '-o', 'json']);
    expect(lint.code, lint.stderr).toBe(0);
    expect(warned(lint.stderr)).toEqual([
      'warning: w.csv:2:5 (Hb): --column leaves "Gender" out, though this row fills it: ' +
        'its range is read for every sex',
      'warning: w.csv:2:6 (Hb): --column leaves "Low" out, though this row fills it: its range is read without min',
      'warning: w.csv:4:6 (K): --column leaves "Low" out, though this row fills it: its range is read without min',
    ]);
    // A CI script reading the report sees them on the measures they change.
    const report = JSON.parse(lint.stdout);
    expect(report).toMatchObject({ checked: 4, clean: 2, withWarnings: 2 });
    expect(report.records.find((r: { name: string }) => r.name === 'K').warnings).toEqual([
      'min: --column leaves "Low" out, though line 4 fills it: its range is read without min',
    ]);
    expect((await cli(['measures', 'lint', 'w.csv', '--strict', ...drop])).code).toBe(1);
    // import --strict refuses what lint --strict refuses, and sends nothing.
    const strict = await cli(['measures', 'import', 'w.csv', '--strict', ...drop]);
    expect(strict.code).toBe(2);
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
    const r = await cli(['measures', 'import', 'w.csv', ...drop]);
    expect(r.code, r.stderr).toBe(0);
    expect(warned(r.stderr)).toHaveLength(3);
    const byName = Object.fromEntries(
      ((await s.call('GET', '/diagnostic-measures')).body as Record<string, unknown>[]).map((m) => [m.name, m]),
    );
    expect(byName.Hb.referenceRanges).toEqual([{ id: expect.any(String), max: 175, sex: 'all' }]);
    expect(byName.K.panicRanges).toEqual([{ max: 6.5, sex: 'all' }]);

    // The range cell left out: only Na filled it, and no Low or High on its row stands in. Its range then has
    // no bound, an error, and the warning beside it says why.
    const cell = await cli(['measures', 'lint', 'w.csv', ...given('Reference range=', 'Comments=')]);
    expect(cell.code).toBe(2);
    expect(cell.stderr).toContain('w.csv:3:4 (Na): referenceRanges[0]: a range needs at least one of min, max');
    expect(cell.stderr).toContain(
      '  - warning: w.csv:3:8 (Na): --column leaves "Reference range" out, though this row fills it: ' +
        'its range is read without that cell\n',
    );
    expect(cell.stderr).toContain('1 error and 1 warning in the input');
    // Range type and Critical low: a row saying reference loses nothing; K's panic and Na's 120 are lost.
    const kind = await cli(['measures', 'lint', 'w.csv', ...given('Range type=', 'Critical low=', 'Comments=')]);
    expect(warned(kind.stderr)).toEqual([
      'warning: w.csv:3:9 (Na): --column leaves "Critical low" out, though this row fills it: ' +
        'its critical low limit is not read',
      'warning: w.csv:4:4 (K): --column leaves "Range type" out, though this row fills it: ' +
        'the row is read as a reference range',
    ]);
    // Columns that hold no part of a range are left out without a word.
    const quiet = await cli(['measures', 'lint', 'w.csv', ...given('Comments=')]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toContain('warning');
  });

  it('judges a left-out cell by what the row read: a second column, a one-sided cell, every row counted', async () => {
    const { dir, cli } = await cliOnServer({ events: false });
    // Two columns giving min, both left out: Hb fills only the second. A cell of "≤ 5.0" gives a max alone,
    // so Chol's Low of 3.0 is lost; an age from 0 is what no age means; per-sex lines give Hgb its sexes.
    const sheet = [
      'Panel,Analyte,Units,Low,Ref low,High,Reference range,Age from,Gender',
      'tst_c,Hb,g/L,,120,160,,,',
      'tst_c,Chol,mmol/L,3.0,,,≤ 5.0,0,',
      '"tst_c","Hgb","g/L",,,,"Male = 135-175 g/L\nFemale = 120-160 g/L",,M',
    ];
    await writeFile(join(dir, 'd.csv'), `${sheet.join('\n')}\n`);
    const flags = ['Low=', 'Ref low=', 'Age from=', 'Gender='].flatMap((c) => ['--column', c]);
    const r = await cli(['measures', 'lint', 'd.csv', ...flags]);
    expect(r.code, r.stderr).toBe(0);
    expect(warned(r.stderr)).toEqual([
      'warning: d.csv:2:5 (Hb): --column leaves "Ref low" out, though this row fills it: ' +
        'its range is read without min',
      'warning: d.csv:3:4 (Chol): --column leaves "Low" out, though this row fills it: its range is read without min',
    ]);
    // Seventy rows of one measure, each losing its Low: fifty listed, every one counted.
    // Each for a year of age, so the bands meet and nothing but the left-out Low draws a word.
    const rows = Array.from({ length: 70 }, (_, i) => `tst_c,Glu,mmol/L,${i},${i},3.${i},9.9,note`);
    const head = 'Panel,Analyte,Units,Age from,Age to,Low,High,Comments';
    await writeFile(join(dir, 'many.csv'), `${head}\n${rows.join('\n')}\n`);
    const many = await cli([
      'measures',
      'lint',
      'many.csv',
      '--column',
      'Low=',
      '--column',
      'Comments=',
      '-o',
      'table',
    ]);
    expect(warned(many.stderr)).toHaveLength(51);
    expect(warned(many.stderr).at(-1)).toBe('warning: … and 20 more warnings');
    expect(many.stdout).toContain('(70 warnings)');
  });

  it('holds a left-out cell with a digit as holding its part, read or not, and a panic row as its limits', async () => {
    const { dir, cli } = await cliOnServer({ events: false });
    // Kept, each cell would be read or refused; left out, its row must not lose it in silence: a bound with
    // its unit, a bound behind the formula guard export writes ('-2), a range cell whose unit no column checks.
    const sheet = ['Panel,Analyte,Low,High,Reference range', 'tst_c,A,3.5 mmol/L,,≤ 5.0', "tst_c,B,'-2,,≤ 5.0"];
    await writeFile(join(dir, 'h.csv'), `${sheet.join('\n')}\n`);
    await writeFile(join(dir, 'c.csv'), 'Panel,Analyte,Low,High,Reference range\ntst_c,C,,,3.5-5.1 mmol/L\n');
    const low = await cli(['measures', 'lint', 'h.csv', '--column', 'Low=']);
    expect(warned(low.stderr)).toEqual([
      'warning: h.csv:2:3 (A): --column leaves "Low" out, though this row fills it: its range is read without min',
      'warning: h.csv:3:3 (B): --column leaves "Low" out, though this row fills it: its range is read without min',
    ]);
    const cell = await cli(['measures', 'lint', 'c.csv', '--column', 'Reference range=']);
    expect(warned(cell.stderr)).toEqual([
      'warning: c.csv:2:5 (C): --column leaves "Reference range" out, though this row fills it: ' +
        'no range is read from the row',
    ]);
    // A ; sheet's half year is an age; an age from 0 in any unit is where a range without one starts; a panic
    // row's own Low and High are its critical limits, so the repeated ones lose nothing.
    const ages = ['Panel;Analyte;Units;Low;High;Age from', 'tst_c;D;u;1;2;0,5', 'tst_c;E;u;1;2;0 d'];
    await writeFile(join(dir, 'a.csv'), `${ages.join('\n')}\n`);
    const age = await cli(['measures', 'lint', 'a.csv', '--column', 'Age from=']);
    expect(warned(age.stderr)).toEqual([
      'warning: a.csv:2:6 (D): --column leaves "Age from" out, though this row fills it: ' +
        'its range is read without ageMin',
    ]);
    const panic =
      'Panel,Analyte,Units,Range type,Low,High,Critical low,Critical high\ntst_c,K,u,panic,2.5,6.5,2.5,6.5\n';
    await writeFile(join(dir, 'p.csv'), panic);
    const limits = await cli(['measures', 'lint', 'p.csv', '--column', 'Critical low=', '--column', 'Critical high=']);
    expect(limits.code, limits.stderr).toBe(0);
    expect(warned(limits.stderr)).toEqual([]);
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
