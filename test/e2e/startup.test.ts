import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
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
  // bin/load.cjs compiles the bundle's files with vm.Script: the preload notes each file it is given.
  await writeFile(
    preload,
    "const vm = require('node:vm'); const Script = vm.Script; const compiled = [];\n" +
      'vm.Script = function (code, o) {\n  if (o && o.filename) compiled.push(o.filename);\n' +
      '  return new Script(code, o);\n};\n' +
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, ` +
      'JSON.stringify({ files: [...Object.keys(require.cache), ...compiled], builtins: process.moduleLoadList })));',
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

  it('loads neither child_process, fs/promises nor http2 for --help, nor before Node 24 the ESM loader', async () => {
    const { builtins } = await loaded(['measures', 'create', '--help']);
    for (const m of ['NativeModule child_process', 'NativeModule internal/fs/promises', 'NativeModule http2'])
      expect(builtins, m).not.toContain(m);
    // Node 24 starts the ES module loader for every entry, CommonJS too; Node 20 and 22 only for ES modules.
    expect(builtins.includes('NativeModule internal/modules/esm/loader')).toBe(NODE_MAJOR >= 24);
  });

  it('keeps V8 code in the user cache folder, once per file and command; Node 20 gets flags', async () => {
    const cache = await tempDir();
    const env = { XDG_CACHE_HOME: cache };
    const { files } = await loaded(['measures', 'create', '--help'], env);
    const bin = join(dist, '..', 'bin');
    expect(files).toContain(join(bin, 'load.cjs'));
    expect(files.includes(join(bin, 'node20.cjs'))).toBe(NODE_MAJOR < 22);
    const folder = join(cache, 'clinadmin', `v8-${process.version}-${process.arch}`);
    const chunks = (await readdir(join(dist, 'chunks'))).map((f) => f.replace(/\.cjs$/, ''));
    const first = (await readdir(folder)).filter((f) => f !== 'commands');
    // One file for each hashed chunk the command loaded (the entry's code too), named after it.
    expect(first.length).toBeGreaterThan(3);
    expect(first.filter((f) => !chunks.includes(f))).toEqual([]);
    expect(first.some((f) => f.startsWith('cli-'))).toBe(true);
    expect(await readFile(join(folder, 'commands'), 'utf8')).toBe('measures create --help\n');
    const stamp = async () =>
      Object.fromEntries(await Promise.all(first.map(async (f) => [f, (await stat(join(folder, f))).mtimeMs])));
    const before = await stamp();
    // The same command again reads the cache and writes nothing; another command adds what it compiled.
    const again = await clinadmin(['measures', 'create', '--help'], { env });
    expect(again.exitCode).toBe(0);
    expect(await stamp()).toEqual(before);
    expect((await clinadmin(['coverages', 'list', '--help'], { env })).exitCode).toBe(0);
    expect(await readFile(join(folder, 'commands'), 'utf8')).toBe('measures create --help\ncoverages list --help\n');
    expect(await readdir(dist)).not.toContain('code-cache');
  });

  it('works the same with a damaged, unwritable or switched-off cache, and says nothing of it', async () => {
    const server = await testServer({ seed: true });
    const args = ['measures', 'list', '-o', 'json'];
    const api = { CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: TOKEN };
    const cache = await tempDir();
    const plain = await clinadmin(args, { env: { ...api, XDG_CACHE_HOME: cache } });
    expect(plain.exitCode, plain.stderr).toBe(0);
    const folder = join(cache, 'clinadmin', `v8-${process.version}-${process.arch}`);
    // Damaged: every cached file overwritten with other bytes; V8 refuses them and the run writes them anew.
    for (const f of await readdir(folder)) if (f !== 'commands') await writeFile(join(folder, f), 'not a cache');
    const damaged = await clinadmin(args, { env: { ...api, XDG_CACHE_HOME: cache } });
    expect([damaged.exitCode, damaged.stdout, damaged.stderr]).toEqual([0, plain.stdout, '']);
    const rewritten = (await readdir(folder)).filter((f) => f !== 'commands');
    for (const f of rewritten) expect((await readFile(join(folder, f))).toString(), f).not.toBe('not a cache');
    // Unwritable: the cache folder is a file.
    const blocked = await tempDir();
    await writeFile(join(blocked, 'clinadmin'), '');
    const unwritable = await clinadmin(args, { env: { ...api, XDG_CACHE_HOME: blocked } });
    expect([unwritable.exitCode, unwritable.stdout, unwritable.stderr]).toEqual([0, plain.stdout, '']);
    for (const off of ['CLINADMIN_NO_CODE_CACHE', 'NODE_DISABLE_COMPILE_CACHE']) {
      const empty = await tempDir();
      const r = await clinadmin(args, { env: { ...api, XDG_CACHE_HOME: empty, [off]: '1' } });
      expect([r.exitCode, r.stdout], off).toEqual([0, plain.stdout]);
      expect(await readdir(empty), off).toEqual([]);
    }
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
