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
