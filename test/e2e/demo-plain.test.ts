// Covers: scripts/demo.sh src/output/theme.ts
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

// Issue 64: `npm run demo | cat` printed raw `\033[1m` with NO_COLOR set. In a pipe, or with NO_COLOR,
// the demo's step lines are plain text.

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('npm run demo', () => {
  it('writes no escape sequence into a pipe, NO_COLOR set or not', async () => {
    for (const env of [{ NO_COLOR: '1' }, {}]) {
      const r = await execa('bash', ['scripts/demo.sh'], { cwd: root, env, reject: false });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toContain('\n$ clinadmin measures list -o table\n');
      expect(r.stdout).not.toContain('\u001b');
    }
  }, 120_000);
});
