import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliOnServer } from '../helpers/server.js';

// A Reference Range cell as a hostile file or a careless lab admin writes it: refused naming its row and
// column, in bounded work, beside the sheet's other errors.

const HEAD = 'Panel,Analyte,Units,Reference Range';

describe('a Reference Range cell from a hostile sheet', () => {
  it('refuses a 10 MB cell by its length, beside the sheet’s other errors, in one pass', async () => {
    const { dir, cli } = await cliOnServer({ events: false });
    // A run of spaces between a number and a letter: a backtracking pattern takes hours over it.
    const huge = `1-${' '.repeat(10_000_000)}a`;
    await writeFile(join(dir, 'h.csv'), `${HEAD}\ntst_c,Hemoglobin,g/L,"${huge}"\ntst_c,Potassium,mmol/L,x\n`);
    const r = await cli(['measures', 'lint', 'h.csv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('h.csv:2:4 (Hemoglobin): referenceRange: "1-');
    expect(r.stderr).toContain('(10000003 characters) is longer than a range');
    expect(r.stderr).toContain('h.csv:3:4 (Potassium): referenceRange: "x" is not a range');
  });
});
