// Covers: src/core/number.ts src/commands/options.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsedAs, runCli } from '../helpers/run-cli.js';
import { cliEnv, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

// Every number a person types goes through one reader with --timeout's rules: digits, a minus sign where a
// negative makes sense, one decimal point. `0x10` (16 to Number()), `1e3` (1000), `1_000` and `Infinity` are
// refused with the same sentence wherever they are typed: a flag, a range's short form, a sheet's cell.

const RULE = 'must be a number: an optional minus sign, digits and at most one decimal point, as in -3.5';
const UNSIGNED = 'must be a number: digits and at most one decimal point, as in 3.5';
/** What the reader says is wrong with each text: the first character that is not a digit or the point. */
const GOT: Record<string, string> = {
  '0x10': '"0x10": the letter "x"',
  '0x0': '"0x0": the letter "x"',
  '0x1': '"0x1": the letter "x"',
  '0x3': '"0x3": the letter "x"',
  '1e3': '"1e3": the letter "e"',
  '1e-1': '"1e-1": the letter "e"',
  '1_0': '"1_0": the character "_"',
  Infinity: '"Infinity"',
};

async function setup() {
  const server = await testServer({ seed: false, events: false });
  const dir = await tempDir();
  const env = cliEnv(server.url, dir);
  const cli = (argv: string[]) => runCli(argv, { env, cwd: dir });
  const stored = async () => (await server.call('GET', '/diagnostic-measures')).body as Record<string, unknown>[];
  return { server, dir, cli, stored };
}

describe('one reader for every number a person types', () => {
  it('refuses 0x10 and 1e3 in a field flag (--breakdown-min, --created-at, --amount) and sends nothing', async () => {
    const { cli, stored, server } = await setup();
    for (const [flag, value] of [
      ['--breakdown-min', '0x10'],
      ['--breakdown-max', '1e3'],
      ['--created-at', '1e3'],
      ['--created-at', 'Infinity'],
    ]) {
      const r = await cli(['measures', 'create', '--test', 't', '--name', 'x', flag, value]);
      expect(r.code, `${flag} ${value}`).toBe(2);
      expect(r.stderr).toContain(`invalid option ${flag}: ${RULE} (got ${GOT[value]})`);
    }
    expect(await stored()).toEqual([]);
    const cov = await cli([
      'coverages',
      'create',
      '--type',
      'deduction',
      '--contract',
      'c',
      '--name',
      'n',
      '--amount',
      '0x10',
    ]);
    expect(cov.code).toBe(2);
    expect(cov.stderr).toContain(`invalid option --amount: ${RULE} (got ${GOT['0x10']})`);
    expect((await server.call('GET', '/insurance-coverages')).body).toEqual([]);
    // What is a number is read as written; a negative where the schema allows none is the schema's word.
    const ok = await cli(['measures', 'create', '--test', 't', '--name', 'x', '--breakdown-min', '-2.5', '-o', 'json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ numericBreakdownMin: -2.5 });
  });

  it('refuses them in evaluate --value, serve --fail-rate and sandbox --expect, before any request', async () => {
    // A flag with bounds says them (--fail-rate, --expect); a bare number, the reader's rule.
    for (const [argv, flag, words] of [
      [['measures', 'evaluate', 'msr_k', '--value', '0x10'], '--value', RULE],
      [['measures', 'evaluate', 'msr_k', '--value', '1e3'], '--value', RULE],
      [['serve', '--fail-rate', '1e-1'], '--fail-rate', 'must be a number from 0 to 1'],
      [['serve', '--fail-rate', '0x0'], '--fail-rate', 'must be a number from 0 to 1'],
      [['sandbox', 'requests', '--expect', '0x3'], '--expect', 'must be a whole number of at least 0'],
    ] as const) {
      const r = await parsedAs([...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.parsed).toBeUndefined();
      expect(r.stderr).toBe(`error: invalid option ${flag}: ${words} (got ${GOT[argv.at(-1)!]})\n`);
    }
    expect((await parsedAs(['measures', 'evaluate', 'msr_k', '--value', '-0.50'])).parsed?.options.value).toBe(-0.5);
    expect((await parsedAs(['sandbox', 'requests', '--expect', '3'])).parsed?.options.expect).toBe(3);
  });

  it('refuses them in a range short form and a sheet cell, naming the flag or file:line:column', async () => {
    const { cli, dir, stored } = await setup();
    const range = await cli([
      'measures',
      'create',
      '--test',
      't',
      '--name',
      'x',
      '--reference-range',
      '1-5 precision=0x1',
    ]);
    expect(range.code).toBe(2);
    expect(range.stderr).toContain(`--reference-range precision: ${UNSIGNED} (got ${GOT['0x1']})`);
    await writeFile(
      join(dir, 'bad.csv'),
      'test,name,unit,range,min,max,numericBreakdownMin\r\nt,Sodium,mmol/L,reference,0x10,1e3,1_0\r\n',
    );
    const sheet = await cli(['measures', 'import', 'bad.csv']);
    expect(sheet.code).toBe(2);
    expect(sheet.stderr).toContain(`bad.csv:2:7 (Sodium): numericBreakdownMin: ${RULE} (got ${GOT['1_0']})`);
    expect(sheet.stderr).toContain(`bad.csv:2:5 (Sodium): min: ${RULE} (got ${GOT['0x10']})`);
    expect(sheet.stderr).toContain(`bad.csv:2:6 (Sodium): max: ${RULE} (got ${GOT['1e3']})`);
    expect(await stored()).toEqual([]);
  });
});
