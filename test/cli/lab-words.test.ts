// Covers: src/core/words.ts src/formats/csv/columns.ts src/formats/csv/cells.ts src/core/problems.ts
// Covers: src/core/nearest.ts src/core/lint.ts src/commands/measures/lint-run.ts src/commands/measures/lint.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { TOKEN, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

// A catalog as a lab writes it: its own column names and words. The oracle is the same catalog written with
// the fields' own names (help csv), which must import to the very same records; the critical limits follow
// FHIR R4's `critical` range (results outside it are critical), written "<2.5" and ">6.5" as help ranges does.

async function server() {
  const s = await testServer({ seed: false, events: false });
  const dir = await tempDir();
  const env = { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN };
  const cli = (args: string[], stdin?: string) => runCli(args, { env, cwd: dir, stdin });
  return { s, dir, cli };
}

const BOM = '\ufeff';
const excel = (rows: string[]) => `${BOM}${rows.join('\r\n')}\r\n`;

/** The records a server holds, without what the service sets, by test and name. */
async function held(s: Awaited<ReturnType<typeof server>>['s']) {
  const body = (await s.call('GET', '/diagnostic-measures')).body as Record<string, unknown>[];
  const strip = (r: Record<string, unknown>) => {
    const { id: _i, createdAt: _c, createdBy: _b, updatedAt: _u, ...rest } = r;
    return rest;
  };
  const ranges = (list: unknown) => (list as Record<string, unknown>[] | undefined)?.map(strip);
  return body
    .map(
      (m): Record<string, unknown> => ({
        ...strip(m),
        referenceRanges: ranges(m.referenceRanges),
        panicRanges: ranges(m.panicRanges),
      }),
    )
    .sort((a, b) => `${String(a.test)}/${String(a.name)}`.localeCompare(`${String(b.test)}/${String(b.name)}`));
}

describe("a CSV catalog in the lab's own words", () => {
  it('reads LOINC, Units, Sex M/F, Age from/to, Ref low/high and Critical low/high as the fields', async () => {
    const lab = await server();
    await writeFile(
      join(lab.dir, 'lab.csv'),
      excel([
        'Panel,Analyte,LOINC,Units,Type,Sex,Age from,Age to,Ref low,Ref high,Critical low,Critical high',
        'tst_bmp,Potassium,2823-3,mmol/L,numeric,All,18,120,3.5,5.1,<2.5,>6.5',
        'tst_cbc,Hemoglobin,718-7,g/dL,numeric,M,18,120,13.5,17.5,,',
        'tst_cbc,Hemoglobin,718-7,g/dL,numeric,female,18,120,12,15.5,7,',
      ]),
    );
    const linted = await lab.cli(['measures', 'lint', 'lab.csv', '-o', 'json']);
    expect(linted.code, linted.stderr).toBe(0);
    expect(JSON.parse(linted.stdout)).toMatchObject({ checked: 2, clean: 2 });
    const r = await lab.cli(['measures', 'import', 'lab.csv']);
    expect(r.code, r.stderr).toBe(0);

    // The same catalog in the fields' own names, critical limits as panic rows; a column headed LOINC holds
    // LOINC codes, which HL7 table 0396 names LN.
    const own = await server();
    await writeFile(
      join(own.dir, 'own.csv'),
      excel([
        'test,name,hl7IdentifierCod,hl7IdentifierSys,unit,type,range,sex,ageMin,ageMax,min,max',
        'tst_bmp,Potassium,2823-3,LN,mmol/L,numeric,reference,all,18,120,3.5,5.1',
        'tst_bmp,Potassium,2823-3,LN,mmol/L,numeric,panic,all,18,120,2.5,6.5',
        'tst_cbc,Hemoglobin,718-7,LN,g/dL,numeric,reference,male,18,120,13.5,17.5',
        'tst_cbc,Hemoglobin,718-7,LN,g/dL,numeric,reference,female,18,120,12,15.5',
        'tst_cbc,Hemoglobin,718-7,LN,g/dL,numeric,panic,female,18,120,7,',
      ]),
    );
    expect((await own.cli(['measures', 'import', 'own.csv'])).code).toBe(0);
    const expected = await held(own.s);
    expect(await held(lab.s)).toEqual(expected);
    expect(expected[0]).toMatchObject({
      name: 'Potassium',
      hl7IdentifierCod: '2823-3',
      hl7IdentifierSys: 'LN',
      panicRanges: [{ min: 2.5, max: 6.5, sex: 'all' }],
    });
    // FHIR's critical range: 2.4 is below the low limit, 6.6 above the high one.
    for (const [value, answer] of [
      ['2.4', 'critical-low'],
      ['6.6', 'critical-high'],
    ])
      expect(
        JSON.parse(
          (
            await lab.cli(
              ['measures', 'evaluate', '--file', 'lab.csv', '--name', 'Potassium', '--value', value].concat([
                '--age',
                '40',
                '-o',
                'json',
              ]),
            )
          ).stdout,
        ).interpretation,
      ).toBe(answer);
  });

  it("checks a LOINC column's codes as LOINC's; a column headed Code names no system", async () => {
    const lab = await server();
    // LOINC's mod 10 check digit of 2823 (digits from the right, every other one doubled from the first):
    // 3*2=6 -> 6; 2 -> 2; 8*2=16 -> 1+6=7; 2 -> 2; sum 17; (10 - 17 % 10) % 10 = 3, so 2823-3, not 2823-4.
    const sheet = (header: string) =>
      excel([`Panel,Analyte,${header},Units,Ref low,Ref high`, 'tst_bmp,Potassium,2823-4,mmol/L,3.5,5.1']);
    await writeFile(join(lab.dir, 'loinc.csv'), sheet('LOINC'));
    await writeFile(join(lab.dir, 'code.csv'), sheet('Code'));
    const loinc = await lab.cli(['measures', 'lint', 'loinc.csv']);
    expect(loinc.stderr).toContain('2823-3 is the code with that number');
    const code = await lab.cli(['measures', 'lint', 'code.csv']);
    expect(code.code, code.stderr).toBe(0);
    expect(code.stderr).not.toContain('2823-3');
  });

  it('reads critical as panic and a range row by row in any case; sex=M in the short form', async () => {
    const { s, dir, cli } = await server();
    await writeFile(
      join(dir, 'k.csv'),
      excel([
        'test,name,type,unit,Range,sex,ageMin,ageMax,min,max',
        'tst_bmp,Potassium,numeric,mmol/L,Reference,all,18,120,3.5,5.1',
        'tst_bmp,Potassium,,,CRITICAL,all,,,<2.5,',
        'tst_bmp,Potassium,,,critical,all,,,,>6.5',
      ]),
    );
    const r = await cli(['measures', 'import', 'k.csv']);
    expect(r.code, r.stderr).toBe(0);
    const [k] = (await s.call('GET', '/diagnostic-measures')).body;
    expect(k.panicRanges).toMatchObject([{ min: 2.5 }, { max: 6.5 }]);
    expect(k.panicRanges[0].max).toBeUndefined();
    const u = await cli(['measures', 'update', k.id, '--set-reference-range', '1 3.5-5.1 sex=M age=18-120']);
    expect(u.code, u.stderr).toBe(0);
    expect((await s.call('GET', `/diagnostic-measures/${k.id}`)).body.referenceRanges[0].sex).toBe('male');
  });

  it('refuses what it cannot read with the nearest guess, every mistake of the file in one run', async () => {
    const { s, dir, cli } = await server();
    await writeFile(
      join(dir, 'bad.csv'),
      excel([
        'Panel,Analyte,LONIC,Units,Type,Range type,Sex,Age from,Age to,Low,High',
        'tst_bmp,Potassium,2823-3,mmol/L,numeric,normal,All,18,120,3.5,5.1',
        'tst_bmp,Potassium,2823-3,mmol/L,numeric,critcal,All,18,120,2.5,6.5',
        'tst_bmp,Potassium,2823-3,mmol/L,numeric,critical,All,18,120,>2.5,6.5',
        'tst_cbc,Hemoglobin,718-7,g/dL,numeric,reference,Mael,18,120,13.5,17.5',
      ]),
    );
    for (const verb of ['lint', 'import']) {
      const r = await cli(['measures', verb, 'bad.csv']);
      expect(r.code, verb).toBe(2);
      expect(r.stderr).toContain('bad.csv:1:3: unknown column "LONIC"; did you mean "LOINC"?');
      expect(r.stderr).toContain('bad.csv:3:6 (Potassium): range: must be reference or panic');
      expect(r.stderr).toContain('(got "critcal"); did you mean critical?');
      expect(r.stderr).toContain('bad.csv:4:10 (Potassium): min: ">2.5" is a critical high limit');
      expect(r.stderr).toContain('write it under max');
      expect(r.stderr).toContain('bad.csv:5:7 (Hemoglobin): sex: must be all, male or female');
      expect(r.stderr).toContain('(got "Mael"); did you mean male?');
    }
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });
});

describe('lint sees every gap, per sex', () => {
  it('all to 28 d beside male from 29 d leaves a female of 29 d and older uncovered, and says so', async () => {
    const { dir, cli } = await server();
    const bili = {
      test: 'tst_neo',
      name: 'Bilirubin, total',
      type: 'numeric',
      unit: 'mg/dL',
      referenceRanges: [
        { min: 0.1, max: 12, sex: 'all', ageMin: 0, ageMax: '28d' },
        { min: 0.1, max: 1.2, sex: 'male', ageMin: '29d', ageMax: '120y' },
      ],
    };
    await writeFile(join(dir, 'bili.json'), JSON.stringify([bili]));
    const r = await cli(['measures', 'lint', 'bili.json']);
    expect(r.stderr).toContain(
      'referenceRanges[0]: ages 29 d–120 y are not covered for sex female: its bands end at 28 d, ' +
        "and the measure's run to 120 y",
    );
    // What evaluate then answers for a woman of 40: no range, the gap lint names.
    const e = await cli(
      ['measures', 'evaluate', '--file', 'bili.json', '--name', 'Bilirubin, total'].concat([
        '--value',
        '0.5',
        '--age',
        '40',
        '--sex',
        'female',
        '-o',
        'json',
      ]),
    );
    expect(JSON.parse(e.stdout).interpretation).toBe('no-range');
    // With the female band the catalog lints clean.
    bili.referenceRanges.push({ min: 0.1, max: 1.1, sex: 'female', ageMin: '29d', ageMax: '120y' });
    await writeFile(join(dir, 'bili.json'), JSON.stringify([bili]));
    const clean = await cli(['measures', 'lint', 'bili.json', '-o', 'json']);
    expect(JSON.parse(clean.stdout)).toMatchObject({ checked: 1, clean: 1 });
  });
});

describe('every problem of a file in one pass', () => {
  it('lint and import list every problem of every record, the first 50 and then how many more', async () => {
    const { s, dir, cli } = await server();
    // 62 records, each with a bound that is no number and a sex that is none.
    const bad = Array.from({ length: 62 }, (_, i) => ({
      test: 'tst_x',
      name: `Measure ${i + 1}`,
      type: 'numeric',
      unit: 'mg/dL',
      referenceRanges: [{ min: 'low', max: 5, sex: 'unknown' }],
    }));
    await writeFile(join(dir, 'bad.json'), JSON.stringify(bad));
    await writeFile(
      join(dir, 'bad.ndjson'),
      `${bad
        .slice(0, 2)
        .map((m) => JSON.stringify(m))
        .join('\n')}\n`,
    );
    const sheet = ['test,name,type,unit,range,sex,min,max'];
    for (let i = 1; i <= 62; i++) sheet.push(`tst_x,Measure ${i},numeric,mg/dL,reference,unknown,low,5`);
    await writeFile(join(dir, 'bad.csv'), excel(sheet));
    for (const verb of ['lint', 'import']) {
      const json = await cli(['measures', verb, 'bad.json']);
      expect(json.code, verb).toBe(2);
      const lines = json.stderr.split('\n').filter((l) => l.startsWith('  - '));
      expect(lines).toHaveLength(51);
      // Both mistakes of the first record, in one run.
      expect(lines[0]).toContain('bad.json record 1 (Measure 1)');
      expect(lines.slice(0, 2).join('\n')).toMatch(/referenceRanges\[0\]\.min[\s\S]*referenceRanges\[0\]\.sex/);
      expect(lines[50]).toBe('  - … and 74 more problems');
      const nd = await cli(['measures', verb, 'bad.ndjson']);
      expect(nd.stderr.split('\n').filter((l) => l.startsWith('  - '))).toHaveLength(4);
      const csv = await cli(['measures', verb, 'bad.csv']);
      expect(csv.code, verb).toBe(2);
      const cells = csv.stderr.split('\n').filter((l) => l.startsWith('  - '));
      expect(cells).toHaveLength(51);
      expect(cells[0]).toContain('bad.csv:2:6 (Measure 1): sex:');
      expect(cells[1]).toContain('bad.csv:2:7 (Measure 1): min:');
      expect(cells[50]).toBe('  - … and 74 more problems');
    }
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });

  it("lists a lab sheet's bad cells and its records' problems together, in the sheet's order", async () => {
    const { s, dir, cli } = await server();
    // A lab's own sheet with five mistakes of four kinds: a number cell that is none (line 3), a sex that is
    // none (line 5), a low above its high (line 6, a rule of the record), a band pasted twice (line 8, an
    // overlap) and a wrong LOINC check digit (line 9). The check digit of 2345 by LOINC's mod 10 algorithm
    // (LOINC Users' Guide, "Calculating Mod 10 check digits"), by hand: the digits in odd places from the
    // right, 5 and 3, make 53, doubled 106; the digits in even places, 4 and 2, make 42, put in front: 42106;
    // its digits add to 4+2+1+0+6 = 13; the next multiple of 10 is 20, and 20 - 13 = 7: Glucose is 2345-7,
    // not 2345-1. The other codes are LOINC's own (2951-2, 2823-3, 718-7, 2075-0, 17861-6).
    const rows = [
      'Panel,Analyte,LOINC,Code system,Units,Type,Sex,Age from,Age to,Ref low,Ref high,Critical low,Critical high',
      'tst_bmp,Sodium,2951-2,LN,mmol/L,numeric,All,18,120,136,145,<120,>160',
      'tst_bmp,Potassium,2823-3,LN,mmol/L,numeric,All,18,120,3.5,5.l,<2.5,>6.5',
      'tst_cbc,Hemoglobin,718-7,LN,g/dL,numeric,M,18,120,13.5,17.5,<7,',
      'tst_cbc,Hemoglobin,718-7,LN,g/dL,numeric,X,18,120,12,15.5,<7,',
      'tst_bmp,Chloride,2075-0,LN,mmol/L,numeric,All,18,120,107,98,,',
      'tst_bmp,Calcium,17861-6,LN,mg/dL,numeric,All,18,120,8.6,10.3,<6,>13',
      'tst_bmp,Calcium,17861-6,LN,mg/dL,numeric,All,18,120,8.6,10.3,<6,>13',
      'tst_bmp,Glucose,2345-1,LN,mg/dL,numeric,All,18,120,70,99,<40,>400',
    ];
    await writeFile(join(dir, 'lab.csv'), excel(rows));
    const expected = [
      '  - lab.csv:3:11 (Potassium): max: must be a number: an optional minus sign, digits and at most one decimal ' +
        'point, as in -3.5 (got "5.l": the letter "l")',
      '  - lab.csv:5:7 (Hemoglobin): sex: must be all, male or female (or M, F) (got "X")',
      '  - lab.csv:6:11 (Chloride): referenceRanges[0].max: min (107) must not be greater than max (98)',
      // A sheet without a range column names a range by its row's first cell.
      '  - warning: lab.csv:8:1 (Calcium): referenceRanges[1]: its age band overlaps referenceRanges[0] for sex all: ' +
        'ages 18–120 y are in both',
      '  - warning: lab.csv:9:3 (Glucose): hl7IdentifierCod: 2345-1 has a wrong LOINC check digit: ' +
        '2345-7 is the code with that number',
    ];
    const listed = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('  - '));
    const lint = await cli(['measures', 'lint', 'lab.csv']);
    expect(lint.code, lint.stderr).toBe(2);
    expect(lint.stderr.split('\n')[0]).toBe('error: 3 errors and 2 warnings in the input');
    const found = listed(lint.stderr);
    expect(found).toEqual(expected);
    // import reads a file in two passes (csv/stream.ts) and stdin whole: both list the same, and send nothing.
    const streamed = await cli(['measures', 'import', 'lab.csv']);
    expect(streamed.code).toBe(2);
    expect(streamed.stderr.split('\n')[0]).toBe('error: 3 invalid records; nothing was sent');
    expect(listed(streamed.stderr)).toEqual(found);
    const whole = await cli(['measures', 'import', '-', '--format', 'csv'], excel(rows));
    expect(whole.code).toBe(2);
    expect(listed(whole.stderr)).toEqual(found.map((l) => l.replace('lab.csv:', 'stdin:')));
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });

  it("lists a sheet's unknown column beside its rows' problems, the rows still read", async () => {
    const { s, dir, cli } = await server();
    const rows = [
      'Panel,Analyte,Units,Type,Sex,Ref low,Ref hihg',
      'tst_x,Albumin,g/dL,numeric,F,3.5,5',
      'tst_x,Bilirubin,mg/dL,numberic,all,0.1,1.2',
      'tst_x,Calcium,mg/dL,numeric,Q,8.6,10.3',
    ];
    await writeFile(join(dir, 'col.csv'), excel(rows));
    for (const args of [
      ['lint', 'col.csv'],
      ['import', 'col.csv'],
      ['import', '-', '--format', 'csv'],
    ]) {
      const r = await cli(['measures', ...args], excel(rows));
      expect(r.code, args.join(' ')).toBe(2);
      const file = args[1] === '-' ? 'stdin' : 'col.csv';
      expect(r.stderr.split('\n').filter((l) => l.startsWith('  - '))).toEqual([
        `  - ${file}:1:7: unknown column "Ref hihg"; did you mean "Ref high"? (the columns are in ` +
          '`clinadmin help csv`); its cells are not read',
        `  - ${file}:3:4 (Bilirubin): type: must be one of: numeric, posneg, text, html, multiplechoice, checklist, ` +
          'numeric-breakdown',
        `  - ${file}:4:5 (Calcium): sex: must be all, male or female (or M, F) (got "Q")`,
      ]);
    }
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });

  it("lists 60 problems of a sheet's cells and records as the first 50 and a count", async () => {
    const { s, dir, cli } = await server();
    // Each row: a type no measure has (the record's rule) and a sex that is none (the cell's).
    const rows = ['Panel,Analyte,Units,Type,Sex,Ref low,Ref high'];
    for (let i = 1; i <= 30; i++) rows.push(`tst_x,Measure ${i},mg/dL,numberic,Q,3,5`);
    await writeFile(join(dir, 'many.csv'), excel(rows));
    for (const args of [
      ['lint', 'many.csv'],
      ['import', 'many.csv'],
      ['import', '-', '--format', 'csv'],
    ]) {
      const r = await cli(['measures', ...args], excel(rows));
      expect(r.code, args.join(' ')).toBe(2);
      const lines = r.stderr.split('\n').filter((l) => l.startsWith('  - '));
      const file = args[1] === '-' ? 'stdin' : 'many.csv';
      expect(lines).toHaveLength(51);
      expect(lines[0]).toMatch(new RegExp(`^ {2}- ${file}:2:4 \\(Measure 1\\): type: must be one of: `));
      expect(lines[1]).toBe(`  - ${file}:2:5 (Measure 1): sex: must be all, male or female (or M, F) (got "Q")`);
      expect(lines[48]).toMatch(new RegExp(`^ {2}- ${file}:26:4 \\(Measure 25\\): type: `));
      expect(lines[49]).toMatch(new RegExp(`^ {2}- ${file}:26:5 \\(Measure 25\\): sex: `));
      expect(lines[50]).toBe('  - … and 10 more problems');
    }
    // evaluate reads the file as lint does, and lists its problems the same way.
    const evaluated = await cli(['measures', 'evaluate', '--file', 'many.csv', '--name', 'Measure 1', '--value', '4']);
    expect(evaluated.code).toBe(2);
    const lines = evaluated.stderr.split('\n').filter((l) => l.startsWith('  - '));
    expect(lines).toHaveLength(51);
    expect(lines[50]).toBe('  - … and 10 more problems');
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });
});
