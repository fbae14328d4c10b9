import { join } from 'node:path';
import { expect } from 'vitest';
import { serveProcess } from './bin.js';
import { E2E_TOKEN } from './logged-in.js';
import { tempDir } from './tmp.js';

/**
 * A program's `measures list -o json` against serve (the repo's build, on this machine's loopback) is what
 * the API itself answers: `list` runs it with the base URL and token in `env`, and may keep its config in
 * `dir`, a folder of its own. The server is stopped whatever the outcome.
 */
export async function listsAsServeHolds(
  list: (env: Record<string, string>, dir: string) => Promise<{ exitCode?: number; stdout: unknown; stderr: string }>,
) {
  const dir = await tempDir();
  const s = await serveProcess(['--seed', '--data', join(dir, 'data.json'), '--token', E2E_TOKEN]);
  try {
    const r = await list({ CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: E2E_TOKEN }, dir);
    expect(r.exitCode, r.stderr).toBe(0);
    const fromServer = await fetch(`${s.url}/diagnostic-measures`, {
      headers: { authorization: `Bearer ${E2E_TOKEN}` },
    }).then((res) => res.json());
    expect(JSON.parse(String(r.stdout))).toEqual(fromServer);
  } finally {
    s.proc.kill('SIGTERM');
    await s.proc;
  }
}
