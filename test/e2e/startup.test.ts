import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { clinadmin } from '../helpers/bin.js';
import { TOKEN, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

// Markers each package's own code carries, present in the bundle only where the package is.
const MARKERS = {
  undici: 'UND_ERR_',
  zod: '$ZodType',
  conf: 'clearInvalidConfig',
  inquirer: 'ExitPromptError',
  'cli-table3': 'wordWrap',
  jmespath: 'Unknown character:',
};

/** Runs the real binary with a preload that records every module and Node built-in it loaded. */
async function loaded(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ files: string[]; builtins: string[] }> {
  const dir = await tempDir();
  const out = join(dir, 'loaded.json');
  const preload = join(dir, 'record.cjs');
  await writeFile(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, ` +
      'JSON.stringify({ files: Object.keys(require.cache), builtins: process.moduleLoadList })));',
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
    for (const [pkg, marker] of Object.entries(MARKERS))
      expect(text.includes(marker), `${pkg} is loaded for --help`).toBe(false);
  });

  it('loads neither child_process, fs/promises nor http2 for --help, nor on Node 20 the ES module loader', async () => {
    const { builtins } = await loaded(['measures', 'create', '--help']);
    for (const m of ['NativeModule child_process', 'NativeModule internal/fs/promises', 'NativeModule http2'])
      expect(builtins, m).not.toContain(m);
    // Node 22 and 24 start the ES module loader for every entry, CommonJS too; Node 20 only for ES modules.
    expect(builtins.includes('NativeModule internal/modules/esm/loader')).toBe(NODE_MAJOR >= 22);
  });

  it('caches compiled code in the user cache folder on Node 22+, not the package; Node 20 gets V8 flags', async () => {
    const cache = await tempDir();
    const { files } = await loaded(['measures', 'create', '--help'], { XDG_CACHE_HOME: cache });
    const bin = join(dist, '..', 'bin');
    if (NODE_MAJOR >= 22) {
      expect(files).toContain(join(bin, 'compile-cache.cjs'));
      expect(files).not.toContain(join(bin, 'node20.cjs'));
      const cached = await readdir(join(cache, 'clinadmin'), { recursive: true });
      expect(cached.length).toBeGreaterThan(0);
    } else {
      expect(files).toContain(join(bin, 'node20.cjs'));
      expect(files).not.toContain(join(bin, 'compile-cache.cjs'));
      expect(await readdir(cache)).toEqual([]);
    }
    expect(await readdir(dist)).not.toContain('code-cache');
  });

  it('touches no private Node API in src/ or bin/', async () => {
    const root = join(dist, '..');
    const files = [
      ...(await readdir(join(root, 'src'), { recursive: true })).map((f) => join(root, 'src', f)),
      ...(await readdir(join(root, 'bin'))).map((f) => join(root, 'bin', f)),
    ];
    const PRIVATE = new RegExp(
      [String.raw`\._compile\b`, '_resolveFilename', String.raw`Module\._cache`, String.raw`\b_load\(`]
        .concat([String.raw`module\.constructor`, String.raw`process\.binding`, 'internalBinding', 'moduleLoadList'])
        .join('|'),
    );
    for (const f of files.filter((x) => /\.(ts|cjs|js|mjs)$/.test(x))) {
      const text = await readFile(f, 'utf8');
      expect(PRIVATE.exec(text)?.[0], f).toBeUndefined();
      // V8 flags are set for Node 20 alone, in one file; later Nodes get none.
      if (!f.endsWith('node20.cjs'))
        expect(/setFlagsFromString|--liftoff|--semi-space/.exec(text)?.[0], f).toBeUndefined();
    }
  });

  it('makes a request without loading node:http, http2, assert or child_process (scripts/lean/)', async () => {
    const server = await testServer({ seed: true });
    const { builtins } = await loaded(['measures', 'list', '-o', 'json'], {
      CLINADMIN_BASE_URL: server.url,
      CLINADMIN_TOKEN: TOKEN,
    });
    expect(builtins).toContain('NativeModule net');
    for (const m of ['NativeModule http', 'NativeModule http2', 'NativeModule assert', 'NativeModule child_process'])
      expect(builtins, m).not.toContain(m);
  });

  it('falls back to the HTTP parser without WebAssembly SIMD, a file of its own beside the bundle', async () => {
    const server = await testServer({ seed: true });
    const env = { CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: TOKEN, UNDICI_NO_WASM_SIMD: '1' };
    const r = await clinadmin(['measures', 'list', '-o', 'json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout as string)).toHaveLength(
      ((await server.call('GET', '/diagnostic-measures')).body as unknown[]).length,
    );
    const { files } = await loaded(['measures', 'list', '-o', 'json'], env);
    expect(files).toContain(join(dist, 'llhttp-wasm.cjs'));
    expect(files.filter((f) => f.includes('node_modules'))).toEqual([]);
  });

  it('has the markers it looks for somewhere in the build, so the check above can fail', async () => {
    const dir = resolve(dist, 'chunks');
    const bundle = (await Promise.all((await readdir(dir)).map((f) => readFile(resolve(dir, f), 'utf8')))).join('');
    for (const marker of Object.values(MARKERS)) expect(bundle.includes(marker), marker).toBe(true);
  });
});
