import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { clinadmin, launcher, serveProcess } from './bin.js';
import { tempDir } from './tmp.js';

export const E2E_TOKEN = 'e2e-secret-token-7f3a9c';

/** A real server process and an isolated config dir, logged in through the binary. */
export async function loggedIn() {
  const dir = await tempDir();
  const server = await serveProcess(['--seed', '--data', join(dir, 'data.json'), '--token', `${E2E_TOKEN}:acc_e2e`]);
  const env = { CLINADMIN_CONFIG_DIR: join(dir, 'config') };
  const login = await clinadmin(['login', '--base-url', server.url, '--token-stdin', '--account', 'acc_e2e'], {
    env,
    input: E2E_TOKEN,
  });
  expect(login.exitCode).toBe(0);
  const run = (args: string[], extra: Record<string, string> = {}) => clinadmin(args, { env: { ...env, ...extra } });
  return { dir, server, env, run };
}

/** A folder holding a `clinadmin` that runs the built binary, to put first on a shell's PATH. */
export async function binOnPath(): Promise<string> {
  const binDir = await tempDir();
  const quoted = launcher().map((word) => `'${word.replaceAll("'", "'\\''")}'`);
  await writeFile(join(binDir, 'clinadmin'), `#!/bin/sh\nexec ${quoted.join(' ')} "$@"\n`);
  await chmod(join(binDir, 'clinadmin'), 0o755);
  return binDir;
}
