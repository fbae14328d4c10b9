// Covers: src/cli.ts scripts/build.mjs
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { clinadmin } from '../helpers/bin.js';
import { TOKEN, testServer } from '../helpers/server.js';

// The bundle ships source maps: an unexpected fault under --verbose is traced to our source files and
// lines, as a maintainer reads them; without --verbose, one line and a hint.

const fault = fileURLToPath(new URL('../fixtures/stdout-fault.cjs', import.meta.url));

describe('an unexpected fault', () => {
  it('under --verbose, is traced to src/ files and lines through the shipped source maps', async () => {
    const s = await testServer({ seed: true });
    const env = { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN, NODE_OPTIONS: `--require ${fault}` };
    const verbose = await clinadmin(['--verbose', 'measures', 'show', 'msr_hgb', '-o', 'json'], { env });
    expect(verbose.exitCode).toBe(1);
    expect(verbose.stderr).toContain('error: unexpected: injected fault\nError: injected fault\n');
    // The frame of our output code, named as in the repository, with a line and column.
    expect(verbose.stderr).toMatch(/^ {4}at .*\(.*\/src\/output\/present\.ts:\d+:\d+\)$/m);
    expect(verbose.stderr).toMatch(/^ {4}at .*\/src\/commands\/resource\/show\.ts:\d+:\d+\)?$/m);
    // -v in a group of short options, as commander reads it, turns the source maps on as well.
    const grouped = await clinadmin(['measures', 'show', 'msr_hgb', '-vo', 'json'], { env });
    expect(grouped.stderr).toMatch(/^ {4}at .*\(.*\/src\/output\/present\.ts:\d+:\d+\)$/m);
    const quiet = await clinadmin(['measures', 'show', 'msr_hgb', '-o', 'json'], { env });
    expect(quiet.stderr).toBe(
      'error: unexpected: injected fault\nhint: run again with --verbose for details, and report it if it persists',
    );
  });
});
