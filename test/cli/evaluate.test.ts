// Covers: src/commands/measures/evaluate.ts src/commands/measures/evaluate-run.ts src/core/interpret.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { TOKEN, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

// Expected answers from FHIR R4's definition of the `critical` range (results outside it are critical) and of
// a reference range; the catalog is written as a lab writes it: critical limits per sex and age band.

/**
 * Sodium as a lab keeps it: adults 135–145 mmol/L, critical < 120 or > 160; newborns (0–28 d) 133–146. The
 * service holds exact years [ageMin, ageMax): 18–120 y is [18, 121), 0–28 d [0, 29 d).
 */
const sodium = {
  test: 'tst_bmp',
  name: 'Sodium',
  type: 'numeric',
  unit: 'mmol/L',
  referenceRanges: [
    { min: 135, max: 145, ageMin: 18, ageMax: 121 },
    { min: 133, max: 146, ageMin: 0, ageMax: 29 / 365.25 },
  ],
  panicRanges: [
    { min: 120, max: 160, ageMin: 18 },
    { min: 125, max: 155, ageMin: 0, ageMax: 29 / 365.25 },
  ],
};

async function setup() {
  const s = await testServer({ seed: true, events: false });
  const dir = await tempDir();
  const env = { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN };
  const cli = (args: string[]) => runCli(args, { env, cwd: dir });
  return { s, dir, cli };
}

describe('measures evaluate', () => {
  it('interprets a result of a server measure: JSON with the ranges that applied, exit 0 whatever it is', async () => {
    const { s, cli } = await setup();
    const created = await s.call('POST', '/diagnostic-measures', sodium);
    const id = created.body.id as string;
    const cases: [string[], string][] = [
      [['--value', '119', '--age', '40'], 'critical-low'],
      [['--value', '120', '--age', '40'], 'low'],
      [['--value', '135', '--age', '40'], 'normal'],
      [['--value', '161', '--age', '40'], 'critical-high'],
      // 72 hours old: the newborn band and its own limits apply.
      [['--value', '124', '--age', '72h'], 'critical-low'],
      [['--value', '150', '--age', '72h'], 'high'],
      // No age: only ranges for all ages apply, and here there are none.
      [['--value', '100'], 'no-range'],
    ];
    for (const [args, expected] of cases) {
      const r = await cli(['measures', 'evaluate', id, ...args, '-o', 'json']);
      expect(r.code, args.join(' ')).toBe(0);
      expect(JSON.parse(r.stdout).interpretation, args.join(' ')).toBe(expected);
    }
    const adult = JSON.parse(
      (await cli(['measures', 'evaluate', id, '--value', '119', '--age', '40', '-o', 'json'])).stdout,
    );
    expect(adult).toEqual({
      interpretation: 'critical-low',
      reference: [{ id: created.body.referenceRanges[0].id, min: 135, max: 145, ageMin: 18, ageMax: 121, sex: 'all' }],
      panic: [{ min: 120, max: 160, ageMin: 18, sex: 'all' }],
      assumed: ['no sex given: only ranges for all sexes applied'],
    });
  });

  it('says in a line what it found and what it assumed, at a terminal', async () => {
    const { cli } = await setup();
    const r = await cli(['measures', 'evaluate', 'msr_k', '--value', '6.6', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'critical-high (6.6 mEq/L, Potassium)\n' +
        '  panic range:     critical < 2.5 or > 6.5 mEq/L [< 2.5 or > 6.5 mmol/L]\n' +
        '  no sex given: only ranges for all sexes applied\n' +
        '  no age given: only ranges for all ages applied\n',
    );
  });

  it('exits 3 for an unknown measure and 2 for bad input', async () => {
    const { cli } = await setup();
    expect((await cli(['measures', 'evaluate', 'msr_nope', '--value', '1'])).code).toBe(3);
    for (const bad of [
      ['msr_k', '--value', 'abc'],
      ['msr_k'],
      ['msr_k', '--value', '1', '--age', '3 yeras'],
      ['msr_k', '--value', '1', '--sex', 'other'],
    ]) {
      const r = await cli(['measures', 'evaluate', ...bad]);
      expect(r.code, bad.join(' ')).toBe(2);
      expect(r.stderr, bad.join(' ')).toMatch(/^error: /);
    }
  });

  it('evaluates a measure of a catalog file without a server', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'catalog.json'), JSON.stringify([sodium]));
    const r = await runCli(
      [
        'measures',
        'evaluate',
        '--file',
        'catalog.json',
        '--name',
        'Sodium',
        '--value',
        '162',
        '--age',
        '3d',
        '-o',
        'json',
      ],
      { cwd: dir },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).interpretation).toBe('critical-high');
    const missing = await runCli(
      ['measures', 'evaluate', '--file', 'catalog.json', '--name', 'Chloride', '--value', '1'],
      {
        cwd: dir,
      },
    );
    expect(missing.code).toBe(3);
  });
});
