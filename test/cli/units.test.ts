// Covers: src/core/units.ts src/core/lint.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { TOKEN, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

describe('units and codes checked on lint, import, create and update', () => {
  it('warns, and with --strict refuses, a unit not in UCUM and a LOINC code with a wrong check digit', async () => {
    const s = await testServer({ seed: true, events: false });
    const dir = await tempDir();
    const env = { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN };
    const cli = (args: string[]) => runCli(args, { env, cwd: dir });
    const sodium = ['measures', 'create', '--test', 'tst_bmp', '--name', 'Sodium', '--type', 'numeric'];
    const strict = await cli([...sodium, '--unit', 'mEq/L', '--hl7-code', '2951-3', '--hl7-system', 'LN', '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain('  - unit: "mEq/L" is not valid UCUM; UCUM writes it meq/L');
    expect(strict.stderr).toContain('  - hl7IdentifierCod: 2951-3 has a wrong LOINC check digit: 2951-2 is the code');
    const clean = await cli([...sodium, '--unit', 'meq/L', '--hl7-code', '2951-2', '--hl7-system', 'LN', '--strict']);
    expect(clean.code, clean.stderr).toBe(0);
    const id = JSON.parse(clean.stdout).id;
    const update = await cli(['measures', 'update', id, '--unit', 'mcg/mL']);
    expect(update.code).toBe(0);
    expect(update.stderr).toContain('warning: unit: "mcg/mL" is not valid UCUM; UCUM writes it ug/mL');
    await writeFile(
      join(dir, 'hgb.json'),
      JSON.stringify([
        {
          test: 'tst_cbc',
          name: 'Hemoglobin',
          type: 'numeric',
          unit: 'g/dL',
          siunit: 'g/L',
          referenceRanges: [{ min: 13.5, max: 17.5, simin: 135, simax: 1750 }],
        },
      ]),
    );
    const lint = await cli(['measures', 'lint', 'hgb.json']);
    expect(lint.stderr).toContain(
      'referenceRanges[0].simax: 1750 is not 17.5 g/dL in g/L, which is 175 (UCUM: 1 g/dL = 10 g/L)',
    );
    const dry = await cli(['measures', 'import', 'hgb.json', '--dry-run']);
    expect(dry.stderr).toContain('which is 175');
  });
});
