// Runs a few everyday commands once with CLINADMIN_TRAIN_CODE_CACHE=1, so bin/code-cache.cjs saves
// V8's code cache for the dist/ files they load (see there). Help, then list commands against a
// throwaway `clinadmin serve`; a command that fails here fails the build, as it would fail a user.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listening } from './listening.mjs';

const BIN = fileURLToPath(new URL('../bin/clinadmin.cjs', import.meta.url));
const TOKEN = 'train-token';

function baseEnv(work) {
  const env = { ...process.env, NO_COLOR: '1', CLINADMIN_CONFIG_DIR: join(work, 'config') };
  for (const key of Object.keys(env)) if (key.startsWith('CLINADMIN_') && key !== 'CLINADMIN_CONFIG_DIR') delete env[key];
  return env;
}

function run(args, env) {
  const r = spawnSync(process.execPath, [BIN, ...args], { env: { ...env, CLINADMIN_TRAIN_CODE_CACHE: '1' }, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`code-cache training: clinadmin ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
}

async function serve(work, env) {
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--seed', '--data', join(work, 'data.json'), '--token', TOKEN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await listening(proc, 'code-cache training: serve');
  const stop = () => new Promise((resolve) => {
    proc.once('exit', resolve);
    proc.kill('SIGTERM');
  });
  return { url, stop };
}

export async function trainCodeCache() {
  const work = mkdtempSync(join(tmpdir(), 'clinadmin-train-'));
  try {
    const env = baseEnv(work);
    run(['--help'], env);
    run(['measures', 'create', '--help'], env);
    const server = await serve(work, env);
    try {
      const client = { ...env, CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: TOKEN };
      const commands = [
        ['measures', 'list', '-o', 'json'],
        ['measures', 'list', '-o', 'table'],
        ['measures', 'create', '--test', 'tst_training', '--name', 'Training', '--type', 'numeric', '--unit', 'mmol/L', '-o', 'json'],
        ['coverages', 'list', '-o', 'json'],
        ['notifications', 'list', '-o', 'table'],
      ];
      for (const args of commands) run(args, client);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
