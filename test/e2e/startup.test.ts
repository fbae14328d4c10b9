import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { clinadmin } from '../helpers/bin.js';
import { testServer, TOKEN } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

// Markers each package's own code carries, present in the bundle only where the package is.
const MARKERS = { undici: 'UND_ERR_', zod: '$ZodType', conf: 'clearInvalidConfig', inquirer: 'ExitPromptError', 'cli-table3': 'wordWrap', jmespath: 'Unknown character:' };

/** Runs the real binary with a preload that records every module and Node built-in it loaded. */
async function loaded(args: string[], env: Record<string, string> = {}): Promise<{ files: string[]; builtins: string[] }> {
  const dir = await tempDir();
  const out = join(dir, 'loaded.json');
  const preload = join(dir, 'record.cjs');
  await writeFile(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ files: Object.keys(require.cache), builtins: process.moduleLoadList })));`,
  );
  const r = await clinadmin(args, { env: { ...env, NODE_OPTIONS: `--require ${preload}` } });
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(await readFile(out, 'utf8'));
}

describe('start-up', () => {
  it('loads neither undici, zod, conf, @inquirer/prompts, cli-table3 nor jmespath for --help', async () => {
    const { files } = await loaded(['measures', 'create', '--help']);
    const ours = files.filter((f) => f.startsWith(dist));
    expect(ours).toContain(join(dist, 'cli.cjs'));
    const text = (await Promise.all(ours.map((f) => readFile(f, 'utf8')))).join('');
    for (const [pkg, marker] of Object.entries(MARKERS)) expect(text.includes(marker), `${pkg} is loaded for --help`).toBe(false);
  });

  it('never starts the ES module loader, nor loads child_process, fs/promises or http2 for --help', async () => {
    const { builtins } = await loaded(['measures', 'create', '--help']);
    for (const m of ['NativeModule internal/modules/esm/loader', 'NativeModule child_process', 'NativeModule internal/fs/promises', 'NativeModule http2']) expect(builtins, m).not.toContain(m);
  });

  it('makes a request without loading node:http, http2, assert or child_process (scripts/lean/)', async () => {
    const server = await testServer({ seed: true });
    const { builtins } = await loaded(['measures', 'list', '-o', 'json'], { CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: TOKEN });
    expect(builtins).toContain('NativeModule net');
    for (const m of ['NativeModule http', 'NativeModule http2', 'NativeModule assert', 'NativeModule child_process']) expect(builtins, m).not.toContain(m);
  });

  it('falls back to the HTTP parser without WebAssembly SIMD, which the bundle leaves in node_modules', async () => {
    const server = await testServer({ seed: true });
    const env = { CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: TOKEN, UNDICI_NO_WASM_SIMD: '1' };
    const r = await clinadmin(['measures', 'list', '-o', 'json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout as string)).toHaveLength(((await server.call('GET', '/diagnostic-measures')).body as unknown[]).length);
    const { files } = await loaded(['measures', 'list', '-o', 'json'], env);
    expect(files.some((f) => f.endsWith(join('undici', 'lib', 'llhttp', 'llhttp-wasm.js')))).toBe(true);
  });

  it('has the markers it looks for somewhere in the build, so the check above can fail', async () => {
    const dir = resolve(dist, 'chunks');
    const bundle = (await Promise.all((await readdir(dir)).map((f) => readFile(resolve(dir, f), 'utf8')))).join('');
    for (const marker of Object.values(MARKERS)) expect(bundle.includes(marker), marker).toBe(true);
  });
});
