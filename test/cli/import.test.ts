// Covers: src/output/progress.ts src/output/sync.ts src/output/diff-lines.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { TOKEN, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

describe('import progress', () => {
  it('draws a progress bar with count, rate and ETA on a terminal, and nothing of it in a pipe', async () => {
    const server = await testServer();
    const dir = await tempDir();
    const env = { CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: TOKEN, CLINADMIN_CONFIG_DIR: join(dir, 'c') };
    const records = Array.from({ length: 300 }, (_, i) => ({ test: 'tst', name: `M${i}`, type: 'text' }));
    await writeFile(join(dir, 'm.json'), JSON.stringify(records));
    const tty = await runCli(['measures', 'import', 'm.json', '-o', 'table'], {
      env,
      cwd: dir,
      interactive: true,
      stdoutTTY: true,
    });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toMatch(/measures \[=+ *\] \d+\/300 \d+\/s ETA \d+s/);
    // The summary is one sentence at a terminal, with the time and the rate.
    expect(tty.stdout).toMatch(/^300 created, 0 updated, 0 unchanged, 0 failed in \d+\.\d s \([\d,]+\/s\)\n$/);
    const piped = await runCli(['measures', 'import', 'm.json'], { env, cwd: dir });
    expect(piped.stderr).toBe('');
    expect(JSON.parse(piped.stdout)).toMatchObject({ created: 0, unchanged: 300 });
  });
});

describe('the dry-run plan', () => {
  it('shows a changed range as the range that changed, not two whole lists, in color at a terminal', async () => {
    const server = await testServer({ seed: true });
    const dir = await tempDir();
    const env = { CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: TOKEN, CLINADMIN_CONFIG_DIR: join(dir, 'c') };
    const hgb = (await server.call('GET', '/diagnostic-measures/msr_hgb')).body;
    const { id: _id, createdAt: _a, createdBy: _b, ...rest } = hgb;
    const changed = structuredClone(rest);
    changed.referenceRanges[1].max = 16;
    await writeFile(join(dir, 'hgb.json'), JSON.stringify([changed]));
    const plan = await runCli(['measures', 'import', 'hgb.json', '--dry-run'], { env, cwd: dir });
    const lines = plan.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('~ update     hgb.json record 1 (Hemoglobin) msr_hgb');
    expect(lines[1]).toBe(
      '    referenceRanges[1]: rr_hgb_f: 12.0–15.5 [120–155] (female, 18–120 y) → ' +
        'rr_hgb_f: 12.0–16.0 [120–155] (female, 18–120 y)',
    );
    expect(lines).toHaveLength(3);
    const colored = await runCli(['measures', 'import', 'hgb.json', '--dry-run'], {
      env: { ...env, NO_COLOR: undefined, FORCE_COLOR: '1' },
      cwd: dir,
    });
    expect(colored.stdout).toContain('\u001b[33m~ update');
  });
});
