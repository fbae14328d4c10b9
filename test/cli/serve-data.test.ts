// Covers: src/commands/serve-run.ts
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/tmp.js';

// serve makes a missing data file, not the folders above it: a --data whose folder is not there is a
// usage error that names the folder, never an "unexpected" ENOENT from realpath.

describe('serve --data in a folder that is not there', () => {
  it('names the missing folder, exits 2 and makes nothing', async () => {
    const dir = await tempDir();
    const file = join(dir, 'no-such-folder', 'demo.json');
    const r = await runCli(['serve', '--port', '0', '--data', file, '--token', 't']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: ${file}: the folder ${join(dir, 'no-such-folder')} does not exist; make it first\n`);
    expect(await readdir(dir)).toEqual([]);
  });

  it('names a file that stands where the folder should be', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'plain'), 'not a folder');
    const file = join(dir, 'plain', 'demo.json');
    const r = await runCli(['serve', '--port', '0', '--data', file, '--token', 't']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: ${file}: ${join(dir, 'plain')} is not a folder\n`);
  });
});
