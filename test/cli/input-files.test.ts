// Covers: src/formats/input.ts src/formats/json/json-error.ts
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShipped } from '../helpers/run-shipped.js';
import { tempDir } from '../helpers/tmp.js';

// What an input file may hold and how a refusal names it, read by the built CLI in process (runShipped):
// the encodings, bytes and nesting a lab's export tools write. No server answers (port 9): a file that is
// fine gets as far as asking it.

const env = (dir: string) => ({
  CLINADMIN_BASE_URL: 'http://127.0.0.1:9',
  CLINADMIN_TOKEN: 'input-files-token-42',
  CLINADMIN_CONFIG_DIR: dir,
});

describe('input files', () => {
  async function importOf(content: Buffer | string) {
    const dir = await tempDir();
    await writeFile(join(dir, 'in.json'), content);
    return runShipped(['measures', 'import', 'in.json', '--dry-run'], { env: env(dir), cwd: dir });
  }

  it('reads a UTF-8 BOM as nothing', async () => {
    const r = await importOf('\uFEFF[{"test":"t","name":"Na"}]');
    expect(r.stderr).toContain('cannot connect'); // it got as far as asking the server, the input was fine
  });

  it('refuses NUL bytes, UTF-16, Latin-1, duplicate keys and absurd nesting with a clear sentence', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('[{"test":"t","name":"x"}]', 'utf16le')]);
    const cases: [Buffer | string, RegExp][] = [
      ['[{"test":"t","name":"a\u0000"}]', /in\.json holds NUL bytes; it is not a JSON text file/],
      [utf16, /in\.json is UTF-16 text; save it as UTF-8/],
      [
        Buffer.from('[{"test":"t","name":"Na\xefve"}]', 'latin1'),
        /in\.json is not UTF-8 text \(line 1, column 24\); save it as UTF-8/,
      ],
      ['[{"test":"t",\n "name":"a", "name":"b"}]', /in\.json line 2, column 14: duplicate key "name" in one object/],
      [`[{"test":"t","name":"a","section":${'['.repeat(1000)}${']'.repeat(1000)}}]`, /nesting deeper than 512 levels/],
      [
        '{"test":"t","name":"a"}\n{"test":"t","name":"b","name":"c"}\n',
        /in\.json line 2, column 24: duplicate key "name"/,
      ],
      // An array's objects are parsed one at a time; errors still point into the whole file.
      [
        '[{"test":"t","name":"a"},\n {"test":"t","name":}]',
        /in\.json is not valid JSON: line 2, column 21: unexpected character "}"/,
      ],
      [
        '[{"test":"t","name":"a"},\n {"test":"t","name":"b", "test":"u"}]',
        /in\.json line 2, column 26: duplicate key "test" in one object/,
      ],
      // The 511th bracket of the second object opens level 513: column 26 + 33 + 510.
      [
        `[{"test":"t","name":"a"},{"test":"t","name":"b","section":${'['.repeat(511)}${']'.repeat(511)}}]`,
        /in\.json line 1, column 569: nesting deeper than 512 levels/,
      ],
    ];
    for (const [content, message] of cases) {
      const r = await importOf(content);
      expect(r.code, String(message)).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('refuses a file too large to hold before reading it', async () => {
    const dir = await tempDir();
    const fh = await open(join(dir, 'huge.json'), 'w');
    await fh.truncate(300 * 1024 * 1024); // sparse: costs no disk
    await fh.close();
    const r = await runShipped(['measures', 'import', 'huge.json'], { env: env(dir), cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: huge.json is larger than 256 MiB; split it\n');
  });
});
