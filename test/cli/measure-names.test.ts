// Covers: src/commands/resource/find.ts src/commands/measures/evaluate-run.ts src/core/nearest.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { TOKEN, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

async function setup(seed = true) {
  const s = await testServer({ seed, events: false });
  const dir = await tempDir();
  const env = { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN };
  const cli = (args: string[]) => runCli(args, { env, cwd: dir });
  return { s, dir, cli };
}

describe('an argument at fault is named', () => {
  it('an unknown option of a verb comes with the nearest option, as commander suggests', async () => {
    const { cli } = await setup();
    const r = await cli(['measures', 'list', '--name', 'Bilirubin']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--name'");
    expect(r.stderr).toContain('--name-like');
    expect(r.stdout).toBe('');
  });

  it('evaluate --file names the stray word, not "give an id or --file"', async () => {
    const { dir, cli } = await setup(false);
    const catalog = [
      {
        test: 'tst_bmp',
        name: 'Sodium',
        type: 'numeric',
        unit: 'mmol/L',
        referenceRanges: [{ min: 135, max: 145, ageMin: 18, ageMax: 120 }],
      },
    ];
    await writeFile(join(dir, 'catalog.json'), JSON.stringify(catalog));
    const r = await cli(
      ['measures', 'evaluate', '--file', 'catalog.json', '--name', 'Sodium', '--value', '140'].concat([
        '--age',
        '3',
        'days',
      ]),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('too many arguments');
    expect(r.stderr).toContain('"days"');
    expect(r.stderr).not.toContain('not both');
  });
});

describe('a measure by its name where an id goes', () => {
  it('show and evaluate take the id, then the exact name, then the name in another case', async () => {
    const { s, cli } = await setup();
    const k = (await s.call('GET', '/diagnostic-measures')).body.find((m: { name: string }) => m.name === 'Potassium');
    for (const word of [k.id, 'Potassium', 'potassium', 'POTASSIUM']) {
      const r = await cli(['measures', 'show', word, '-o', 'json']);
      expect(r.code, `${word}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout).id, word).toBe(k.id);
      const e = await cli(['measures', 'evaluate', word, '--value', '4.2', '--age', '40', '-o', 'json']);
      expect(e.code, `${word}: ${e.stderr}`).toBe(0);
      expect(JSON.parse(e.stdout).interpretation, word).toBe('normal');
    }
    // An id costs one request, as before: the list is read only when no record has that id.
    const byId = await cli(['measures', 'show', k.id, '-o', 'json', '--verbose']);
    expect(byId.stderr.match(/→ GET/g)).toHaveLength(1);
  });

  it('update, edit and delete take the exact name; another case gets a guess and changes nothing', async () => {
    const { s, cli } = await setup();
    const u = await cli(['measures', 'update', 'Potassium', '--description', 'serum', '-o', 'json']);
    expect(u.code, u.stderr).toBe(0);
    expect(JSON.parse(u.stdout)).toMatchObject({ name: 'Potassium', description: 'serum' });
    const ranges = await cli(['measures', 'update', 'Potassium', '--set-panic-range', '1 <2.8', '-o', 'json']);
    expect(ranges.code, ranges.stderr).toBe(0);
    expect(JSON.parse(ranges.stdout).panicRanges[0]).toMatchObject({ min: 2.8 });
    const wrongCase = await cli(['measures', 'update', 'potassium', '--description', 'x']);
    expect(wrongCase.code).toBe(3);
    expect(wrongCase.stderr).toContain('no measure with id potassium');
    expect(wrongCase.stderr).toContain('did you mean "Potassium"?');
    const edit = await runCli(['measures', 'edit', 'Potassium'], {
      env: { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN, EDITOR: 'true', VISUAL: '' },
    });
    expect(edit.code, edit.stderr).toBe(0);
    expect(edit.stderr).toBe('no change; nothing was sent\n');
    const typo = await cli(['measures', 'show', 'Potasium']);
    expect(typo.code).toBe(3);
    expect(typo.stderr).toContain('did you mean "Potassium"?');
    const d = await cli(['measures', 'delete', 'Potassium', '--yes']);
    expect(d.code, d.stderr).toBe(0);
    const left = (await s.call('GET', '/diagnostic-measures')).body.map((m: { name: string }) => m.name);
    expect(left).not.toContain('Potassium');
  });

  it('a name several tests share lists them (id, test, name) and changes nothing, exit 2', async () => {
    const { s, cli } = await setup(false);
    const a = (await s.call('POST', '/diagnostic-measures', { test: 'tst_bmp', name: 'Glucose', type: 'numeric' }))
      .body;
    const b = (await s.call('POST', '/diagnostic-measures', { test: 'tst_ogtt', name: 'Glucose', type: 'numeric' }))
      .body;
    for (const args of [
      ['show', 'Glucose'],
      ['update', 'Glucose', '--description', 'x'],
      ['delete', 'Glucose', '--yes'],
      ['evaluate', 'Glucose', '--value', '90'],
    ]) {
      const r = await cli(['measures', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('2 measures are named "Glucose"; nothing was done');
      expect(r.stderr).toContain(`${a.id}  test tst_bmp  Glucose`);
      expect(r.stderr).toContain(`${b.id}  test tst_ogtt  Glucose`);
    }
    const after = (await s.call('GET', '/diagnostic-measures')).body;
    expect(after.map((m: { id: string; description?: string }) => [m.id, m.description])).toEqual([
      [a.id, undefined],
      [b.id, undefined],
    ]);
  });

  it('evaluate --file finds a name in another case, and guesses a misspelt one', async () => {
    const { dir, cli } = await setup(false);
    const k = {
      test: 'tst_bmp',
      name: 'Potassium',
      type: 'numeric',
      unit: 'mmol/L',
      referenceRanges: [{ min: 3.5, max: 5.1 }],
    };
    await writeFile(join(dir, 'catalog.json'), JSON.stringify([k]));
    const ok = await cli(
      ['measures', 'evaluate', '--file', 'catalog.json', '--name', 'potassium', '--value', '5.3'].concat([
        '-o',
        'json',
      ]),
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).interpretation).toBe('high');
    const typo = await cli(['measures', 'evaluate', '--file', 'catalog.json', '--name', 'Potasium', '--value', '5']);
    expect(typo.code).toBe(3);
    expect(typo.stderr).toContain('did you mean "Potassium"?');
  });
});
