// Covers: src/formats/csv/ src/formats/catalog.ts src/commands/measures/export-run.ts
// Covers: src/commands/resource/sync-run.ts src/commands/measures/export.ts
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedCatalog } from '../helpers/catalog.js';
import { runCli } from '../helpers/run-cli.js';
import { TOKEN, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

const NUMBER_RULE = 'must be a number: an optional minus sign, digits and at most one decimal point, as in -3.5';

// Catalogs from spreadsheets. The files below are written as Excel writes them ("CSV UTF-8" in an English
// locale; "CSV (semicolon)" in a German one): a UTF-8 byte-order mark, CRLF, a cell quoted only when it
// holds the delimiter, a quote or a line break, quotes doubled, decimal commas where `;` separates.

async function server(seed = false) {
  const s = await testServer({ seed, events: false });
  const dir = await tempDir();
  const env = { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN };
  const cli = (args: string[], stdin?: string) => runCli(args, { env, cwd: dir, stdin });
  return { s, dir, cli };
}

const BOM = '\ufeff';
const excel = (rows: string[]) => `${BOM}${rows.join('\r\n')}\r\n`;

describe('measures export --format csv and import of a CSV catalog', () => {
  it('round-trips the seed and a generated 500-measure catalog using every field, byte for byte', async () => {
    const seeded = await server(true);
    const seedCsv = await seeded.cli(['measures', 'export', '--format', 'csv']);
    expect(seedCsv.code, seedCsv.stderr).toBe(0);
    // Against the same server, the sheet says nothing is to change.
    const same = await seeded.cli(
      ['measures', 'import', '-', '--format', 'csv', '--dry-run', '-o', 'json'],
      seedCsv.stdout,
    );
    expect(JSON.parse(same.stdout)).toMatchObject({ dryRun: true, create: 0, update: 0, unchanged: 6 });
    for (const [what, text] of [['seed', seedCsv.stdout]] as const) {
      const empty = await server();
      await writeFile(join(empty.dir, 'catalog.csv'), text);
      const imported = await empty.cli(['measures', 'import', 'catalog.csv']);
      expect(imported.code, `${what}: ${imported.stderr}`).toBe(0);
      expect((await empty.cli(['measures', 'export', '--format', 'csv'])).stdout, what).toBe(text);
    }
    const origin = await server();
    await writeFile(join(origin.dir, 'gen.json'), JSON.stringify(generatedCatalog(500)));
    expect((await origin.cli(['measures', 'import', 'gen.json'])).code).toBe(0);
    const csv = (await origin.cli(['measures', 'export', '--format', 'csv'])).stdout;
    const copy = await server();
    await writeFile(join(copy.dir, 'gen.csv'), csv);
    const r = await copy.cli(['measures', 'import', 'gen.csv']);
    expect(r.code, r.stderr.slice(0, 2000)).toBe(0);
    expect((await copy.cli(['measures', 'export', '--format', 'csv'])).stdout).toBe(csv);
  });

  it('reads a sheet as Excel saves it: BOM, CRLF, quoted cells, rows apart, columns in any order', async () => {
    const { s, dir, cli } = await server();
    await writeFile(
      join(dir, 'lab.csv'),
      excel([
        'Name,TEST,type,unit,Range,sex,ageMin,ageMax,min,max,description',
        'Potassium,tst_bmp,numeric,mmol/L,reference,all,18,120,3.5,5.1,"Serum, not hemolysed"',
        '"Sodium ""Na""",tst_bmp,numeric,mmol/L,reference,all,18,120,135,145,"two',
        'lines"',
        'Potassium,tst_bmp,,,panic,all,,,2.5,6.5,',
        'Neonatal K,tst_bmp,numeric,mmol/L,reference,all,0,72h,3.7,5.9,',
      ]),
    );
    const r = await cli(['measures', 'import', 'lab.csv']);
    expect(r.code, r.stderr).toBe(0);
    const byName = Object.fromEntries(
      (await s.call('GET', '/diagnostic-measures')).body.map((m: { name: string }) => [m.name, m]),
    );
    expect(byName.Potassium).toMatchObject({
      test: 'tst_bmp',
      unit: 'mmol/L',
      description: 'Serum, not hemolysed',
      // 18 to 120 completed years: [18, 121) in exact years (help ranges).
      referenceRanges: [{ min: 3.5, max: 5.1, ageMin: 18, ageMax: 121, sex: 'all' }],
      panicRanges: [{ min: 2.5, max: 6.5, sex: 'all' }],
    });
    expect(byName['Sodium "Na"'].description).toBe('two\r\nlines');
    // 0–72 h is every age before hour 73: 73/8766 years exactly.
    expect(byName['Neonatal K'].referenceRanges[0].ageMax).toBe(73 / (365.25 * 24));
  });

  it("reads Excel's semicolon CSV with decimal commas, and writes it with --delimiter ';'", async () => {
    const { s, dir, cli } = await server();
    await writeFile(
      join(dir, 'de.csv'),
      excel([
        'test;name;type;unit;range;min;max',
        'tst_bmp;Kalium;numeric;mmol/L;reference;3,5;5,1',
        'tst_bmp;Kalium;;;panic;2,5;6,5',
      ]),
    );
    const r = await cli(['measures', 'import', 'de.csv']);
    expect(r.code, r.stderr).toBe(0);
    const [k] = (await s.call('GET', '/diagnostic-measures')).body;
    expect(k.referenceRanges[0]).toMatchObject({ min: 3.5, max: 5.1 });
    const out = await cli(['measures', 'export', '--format', 'csv', '--delimiter', ';']);
    expect(out.stdout.startsWith(`${BOM}test;name;type;`)).toBe(true);
    expect(out.stdout).toContain(';reference;all;;;3,5;5,1;');
    expect(out.stdout.split('\r\n').length).toBe(4);
  });

  it('writes no cell a spreadsheet would run as a formula, and reads such a cell back as its text', async () => {
    const { dir, cli } = await server();
    await writeFile(
      join(dir, 'f.json'),
      JSON.stringify([
        { test: 'tst_f', name: '=HYPERLINK("http://x")', type: 'text', description: "'=kept as typed" },
        { test: 'tst_f', name: 'Negative', type: 'numeric', unit: 'mg/dL', referenceRanges: [{ min: -5, max: 5 }] },
      ]),
    );
    expect((await cli(['measures', 'import', 'f.json'])).code).toBe(0);
    const csv = (await cli(['measures', 'export', '--format', 'csv'])).stdout;
    expect(csv).toContain(`'=HYPERLINK(""http://x"")`);
    expect(csv).toContain(`''=kept as typed`);
    // A number stays a number.
    expect(csv).toContain(',reference,all,,,-5,5,');
    const other = await server();
    await writeFile(join(other.dir, 'f.csv'), csv);
    expect((await other.cli(['measures', 'import', 'f.csv'])).code).toBe(0);
    expect((await other.cli(['measures', 'export', '--format', 'csv'])).stdout).toBe(csv);
  });

  it('names file, line and column of a bad cell, both lines of a disagreement, and sends nothing', async () => {
    const { s, dir, cli } = await server();
    await writeFile(
      join(dir, 'bad.csv'),
      excel([
        'test,name,type,unit,range,min,max',
        'tst_bmp,Potassium,numeric,mmol/L,reference,3.5,5.1',
        'tst_bmp,Sodium,numeric,mmol/L,reference,135,lots',
        'tst_bmp,Potassium,numeric,mEq/L,panic,2.5,6.5',
      ]),
    );
    const r = await cli(['measures', 'import', 'bad.csv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`  - bad.csv:3:7 (Sodium): max: ${NUMBER_RULE} (got "lots")`);
    expect(r.stderr).toContain('  - bad.csv:4:4 (Potassium): unit: "mEq/L" differs from line 2 of the same measure');
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
    // Read from stdin (whole, not in two passes), the same sheet gives the same errors.
    const piped = await cli(
      ['measures', 'import', '-', '--format', 'csv'],
      await readFile(join(dir, 'bad.csv'), 'utf8'),
    );
    expect(piped.stderr).toBe(r.stderr.replaceAll('bad.csv', 'stdin'));
    // Excel's plain "CSV (Comma delimited)" is saved in the Windows code page: é is the byte 0xE9.
    await writeFile(
      join(dir, 'ansi.csv'),
      Buffer.concat([Buffer.from('test,name,unit\r\ntst_bmp,Prot'), Buffer.from([0xe9]), Buffer.from('ine,g/L\r\n')]),
    );
    const ansi = await cli(['measures', 'import', 'ansi.csv']);
    expect(ansi.code).toBe(2);
    expect(ansi.stderr).toBe('error: ansi.csv is not UTF-8 text (line 2, column 13); save it as UTF-8\n');
    await writeFile(join(dir, 'col.csv'), excel(['test,name,unitt', 'tst_bmp,X,mg/dL']));
    const col = await cli(['measures', 'lint', 'col.csv']);
    expect(col.code).toBe(2);
    // The header's problem is listed with the rest of the sheet's (here none): its rows are still read.
    expect(col.stderr).toBe(
      'error: 1 error in the input\n' +
        '  - col.csv:1:3: unknown column "unitt"; did you mean "unit"? (the columns are in `clinadmin help csv`); ' +
        'its cells are not read\n',
    );
    // import counts a column it does not know as the sheet's problem, not as its first measure's.
    const head = 'test,name,type,unit,range,min,max,Comments';
    const chloride = 'tst_bmp,Chloride,numeric,mmol/L,reference,98,107,checked in May';
    const unknown =
      '  - col2.csv:1:8: unknown column "Comments" (the columns are in `clinadmin help csv`); its cells are not read\n';
    await writeFile(
      join(dir, 'col2.csv'),
      excel([head, chloride, 'tst_bmp,Sodium,numeric,mmol/L,reference,135,lots,']),
    );
    const both = await cli(['measures', 'import', 'col2.csv']);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe(
      'error: 1 invalid record and 1 column problem; nothing was sent\n' +
        unknown +
        `  - col2.csv:3:7 (Sodium): max: ${NUMBER_RULE} (got "lots")\n`,
    );
    await writeFile(join(dir, 'col2.csv'), excel([head, chloride]));
    const header = await cli(['measures', 'import', 'col2.csv', '--strict']);
    expect(header.code).toBe(2);
    expect(header.stderr).toBe(`error: 1 column problem; nothing was sent\n${unknown}`);
    // lint reads a sheet too.
    await writeFile(join(dir, 'ok.csv'), excel(['test,name,type,unit', 'tst_bmp,Chloride,numeric,mmol/L']));
    const lint = await cli(['measures', 'lint', 'ok.csv', '-o', 'json']);
    expect(JSON.parse(lint.stdout)).toMatchObject({ checked: 1, clean: 1 });
    expect(await readFile(join(dir, 'ok.csv'), 'utf8')).toContain('Chloride');
  });

  it('names a row by the line it starts on, past cells with line breaks and blank rows', async () => {
    const { dir, cli } = await server();
    // Line by line as an editor numbers them: Excel writes a cell's Alt+Enter as LF (line 2-3); text pasted
    // from Windows keeps its CRLF (lines 5-7); line 4 is blank. The bad cells are on lines 5 and 8.
    const lines = [
      'test,name,type,unit,range,min,max,description',
      'tst_bmp,Potassium,numeric,mmol/L,reference,3.5,5.1,"first\nsecond"',
      '',
      'tst_bmp,Sodium,numeric,mmol/L,reference,135,lots,"one\r\ntwo\r\nthree"',
      'tst_bmp,Chloride,numeric,mmol/L,reference,98,many,plain',
    ];
    await writeFile(join(dir, 'multi.csv'), excel(lines));
    const r = await cli(['measures', 'import', 'multi.csv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`  - multi.csv:5:7 (Sodium): max: ${NUMBER_RULE} (got "lots")`);
    expect(r.stderr).toContain(`  - multi.csv:8:7 (Chloride): max: ${NUMBER_RULE} (got "many")`);
    // Read whole from stdin, the same lines.
    const piped = await cli(['measures', 'import', '-', '--format', 'csv'], excel(lines));
    expect(piped.stderr).toBe(r.stderr.replaceAll('multi.csv', 'stdin'));
    // A quote out of place on line 9, after the same rows, is named there (csv-parse's own count of lines,
    // which takes a CRLF in a cell for two, is left out of its words).
    const quoted = excel([...lines, 'tst_bmp,"Cal"cium,numeric,mmol/L']);
    await writeFile(join(dir, 'quote.csv'), quoted);
    for (const [name, args] of [
      ['quote.csv', ['quote.csv']],
      ['stdin', ['-', '--format', 'csv']],
    ] as const) {
      const q = await cli(['measures', 'import', ...args], quoted);
      expect(q.code).toBe(2);
      expect(q.stderr).toBe(
        `error: ${name}:9: Invalid Closing Quote: got "c" instead of delimiter, record delimiter, trimable ` +
          'character (if activated) or comment\n',
      );
    }
    // A fault in a row of several lines, and a quote never closed, are named by the line their row starts on.
    const faulty = [lines[0], 'tst_bmp,Sodium,numeric,mmol/L,reference,135,145,"one\r\ntwo\r\nthree"x'];
    await writeFile(join(dir, 'inrow.csv'), excel(faulty));
    expect((await cli(['measures', 'lint', 'inrow.csv'])).stderr).toMatch(
      /^error: inrow\.csv:2: Invalid Closing Quote/,
    );
    await writeFile(
      join(dir, 'open.csv'),
      excel([lines[0], 'tst_bmp,Sodium,numeric,mmol/L,reference,1,2,"one\r\ntwo']),
    );
    expect((await cli(['measures', 'lint', 'open.csv'])).stderr).toMatch(/^error: open\.csv:2: Quote Not Closed/);
    // A header below blank lines is named on its own line.
    await writeFile(join(dir, 'low.csv'), `\r\n\r\n${lines[0]},Comments\r\n${lines[4]},x\r\n`);
    const low = await cli(['measures', 'lint', 'low.csv']);
    expect(low.stderr).toContain('  - low.csv:3:9: unknown column "Comments"');
    expect(low.stderr).toContain(`  - low.csv:4:7 (Chloride): max: ${NUMBER_RULE} (got "many")`);
  });

  it('ends a row at CRLF, LF or CR alike, so a row ended otherwise is neither lost nor shifted', async () => {
    const { dir, cli } = await server();
    const head = 'test,name,type,unit,range,min,max';
    const k = 'tst_m,Potassium,numeric,mmol/L,reference,3.5,5.1';
    const na = 'tst_m,Sodium,numeric,mmol/L,reference,135,lots';
    // RFC 4180 2.6: a line break in a cell is inside quotes; one outside them ends the row, whatever its kind.
    for (const [what, text] of [
      ['CRLF rows, one ended by LF', `${head}\r\n${k}\n${na}\r\n`],
      ['LF rows, one ended by CRLF', `${head}\n${k}\r\n${na}\n`],
      ['CR rows', `${head}\r${k}\r${na}\r`],
    ]) {
      await writeFile(join(dir, 'ends.csv'), text);
      const r = await cli(['measures', 'lint', 'ends.csv']);
      expect(r.code, what).toBe(2);
      // Potassium is read whole and clean: its row did not swallow the next one.
      expect(r.stderr, what).toBe(
        `error: 1 error in the input\n  - ends.csv:3:7 (Sodium): max: ${NUMBER_RULE} (got "lots")\n`,
      );
    }
  });

  it('names the cell of a rule a row breaks and of a lint warning, and behaves as JSON with --report', async () => {
    const { s, dir, cli } = await server();
    await writeFile(
      join(dir, 'rules.csv'),
      excel(['test,name,type,unit,range,min,max', 'tst_bmp,Calcium,numeric,mg/dL,reference,10.5,8.5']),
    );
    const r = await cli(['measures', 'import', 'rules.csv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '  - rules.csv:2:7 (Calcium): referenceRanges[0].max: min (10.5) must not be greater than max (8.5)',
    );
    await writeFile(
      join(dir, 'warn.csv'),
      excel(['test,name,type,unit,range,min,max', 'tst_bmp,Sodium,numeric,mEq/L,reference,135,145']),
    );
    const w = await cli(['measures', 'import', 'warn.csv', '--report', 'report.json']);
    expect(w.code, w.stderr).toBe(0);
    expect(w.stderr).toContain('warning: warn.csv:2:4 (Sodium): unit: "mEq/L" is not valid UCUM; UCUM writes it meq/L');
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'));
    expect(report).toMatchObject({ created: 1 });
    expect((await s.call('GET', '/diagnostic-measures')).body).toHaveLength(1);
  });

  it('has its columns and rules in `clinadmin help csv`, whose example sheet imports as shown', async () => {
    const { dir, cli } = await server(true);
    const help = await cli(['help', 'csv']);
    expect(help.code, help.stderr).toBe(0);
    // Every column export writes is named in the topic.
    const header = (await cli(['measures', 'export', '--format', 'csv'])).stdout.replace(BOM, '').split('\r\n')[0];
    const columns = help.stdout.split('\nColumns')[1].split('\nA column not listed')[0];
    expect(header.split(',').filter((c) => !new RegExp(`\\b${c}\\b`).test(columns))).toEqual([]);
    // The example sheet, as shown, is a valid catalog.
    const sheet = help.stdout.split('one of its ranges per row:\n\n')[1].split('\n\n')[0].replace(/^ {2}/gm, '');
    await writeFile(join(dir, 'example.csv'), `${sheet}\n`);
    const r = await cli(['measures', 'lint', 'example.csv', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ checked: 2 });
    const typo = await cli(['help', 'cvs']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('hint: did you mean csv?');
    expect((await cli(['measures', 'import', '--help'])).stdout).toContain('clinadmin help csv');
  });

  it('--prune deletes what a sheet of a test leaves out, and the server then exports as that sheet', async () => {
    const { dir, cli } = await server(true);
    const sheet = (await cli(['measures', 'export', '--format', 'csv'])).stdout;
    const [head, ...rows] = sheet.replace(BOM, '').trimEnd().split('\r\n');
    const firstName = rows[0].split(',')[1];
    const kept = rows.filter((r) => r.split(',')[1] !== firstName);
    expect(kept.length).toBeLessThan(rows.length);
    await writeFile(join(dir, 'kept.csv'), excel([head, ...kept]));
    const dry = await cli(['measures', 'import', 'kept.csv', '--prune', '--dry-run', '-o', 'json']);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, create: 0, update: 0, delete: 1 });
    const r = await cli(['measures', 'import', 'kept.csv', '--prune', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 0, updated: 0, deleted: 1, failed: 0 });
    expect((await cli(['measures', 'export', '--format', 'csv'])).stdout).toBe(excel([head, ...kept]));
  });
});
