// Covers: bin/clinadmin.cjs bin/compile-cache.cjs scripts/build.mjs src/cli.ts
import { chmod, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { clinadmin } from '../helpers/bin.js';
import { hostileServer } from '../helpers/hostile.js';
import { TOKEN, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));

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

  it('loads neither fs/promises nor http2 for --help', async () => {
    const { builtins } = await loaded(['measures', 'create', '--help']);
    // Node's ES module loader is not among them: since require(esm) (Node 20.19, 22.12) a plain require()
    // starts it on every supported Node, and a loader of our own to avoid it is what the house gave up.
    // commander loads child_process (for executable subcommands) whatever the command: ~1 ms, left as it is.
    for (const m of ['NativeModule internal/fs/promises', 'NativeModule http2']) expect(builtins, m).not.toContain(m);
  });

  it("keeps Node's compile cache (Node 22 and later) in an owner-only folder of the user's cache", async () => {
    const cache = await tempDir();
    const { files } = await loaded(['measures', 'create', '--help'], { XDG_CACHE_HOME: cache });
    const bin = join(dist, '..', 'bin');
    expect(files).toContain(join(bin, 'compile-cache.cjs'));
    expect(files).toContain(join(dist, 'cli.cjs'));
    const folder = join(cache, 'clinadmin', 'compile-cache');
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    expect((await readdir(folder, { recursive: true })).length).toBeGreaterThan(1);
    expect(await readdir(dist)).not.toContain('compile-cache');
  });

  it('never uses a cache folder others can write or one reached through a symlink, and says nothing', async () => {
    const server = await testServer({ seed: true });
    const args = ['measures', 'list', '-o', 'json'];
    const api = { CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: TOKEN };
    const plain = await clinadmin(args, { env: { ...api, XDG_CACHE_HOME: await tempDir() } });
    expect(plain.exitCode, plain.stderr).toBe(0);
    const unsafe: Record<string, () => Promise<{ root: string; watched: string }>> = {
      'a cache root writable by others (like /tmp)': async () => {
        const root = await tempDir();
        await chmod(root, 0o1777);
        return { root, watched: root };
      },
      'our folder writable by its group': async () => {
        const root = await tempDir();
        const watched = join(root, 'clinadmin', 'compile-cache');
        await mkdir(watched, { recursive: true });
        await chmod(watched, 0o770);
        return { root, watched };
      },
      'our folder a symlink to another': async () => {
        const root = await tempDir();
        const watched = await tempDir();
        await symlink(watched, join(root, 'clinadmin'));
        return { root, watched };
      },
    };
    for (const [what, make] of Object.entries(unsafe)) {
      const { root, watched } = await make();
      const r = await clinadmin(args, { env: { ...api, XDG_CACHE_HOME: root } });
      expect([r.exitCode, r.stdout, r.stderr], what).toEqual([0, plain.stdout, '']);
      // Nothing was written where another user could have planted it.
      const inside = (await readdir(watched, { recursive: true })).filter((f) => f.includes(`compile-cache${sep}`));
      expect(inside, what).toEqual([]);
    }
    // NODE_DISABLE_COMPILE_CACHE, Node's own switch, writes nothing.
    const empty = await tempDir();
    const off = await clinadmin(args, { env: { ...api, XDG_CACHE_HOME: empty, NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect([off.exitCode, off.stdout]).toEqual([0, plain.stdout]);
    expect(await readdir(empty)).toEqual([]);
  });

  it('removes the v8-* folders an earlier version left, whose list of commands could hold a token', async () => {
    const cache = await tempDir();
    const legacy = join(cache, 'clinadmin', 'v8-v20.20.2-x64');
    await mkdir(legacy, { recursive: true, mode: 0o700 });
    await writeFile(join(legacy, 'commands'), 'login deadbeef-token\n');
    expect((await clinadmin(['measures', 'create', '--help'], { env: { XDG_CACHE_HOME: cache } })).exitCode).toBe(0);
    expect(await readdir(join(cache, 'clinadmin'))).toEqual(['compile-cache']);
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
      // No V8 flags, on any Node: what the start costs is what Node and our code cost.
      expect(/setFlagsFromString|--liftoff|--semi-space/.exec(text)?.[0], f).toBeUndefined();
    }
  });

  it('imports each dependency by an entry its package.json exports, never a path inside it', async () => {
    const root = join(dist, '..');
    const deep: string[] = [];
    // One zod entry, its main one: a second ('zod/v4/core', 'zod/mini') is a second API to keep in step.
    const zodEntries = new Set<string>();
    for (const f of await readdir(join(root, 'src'), { recursive: true })) {
      if (!f.endsWith('.ts')) continue;
      const text = await readFile(join(root, 'src', f), 'utf8');
      // Import statements and import() alone: a comment that says "from '/path'" imports nothing.
      for (const [, spec] of text.matchAll(/(?:^(?:import|export)\b[^;]*?\bfrom\s+|\bimport\(\s*)'([^.'][^']*)'/gm)) {
        if (spec.startsWith('node:')) continue;
        const parts = spec.split('/');
        const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
        const sub = spec.slice(name.length);
        if (name === 'zod') zodEntries.add(spec);
        if (sub === '') continue;
        const { exports } = JSON.parse(await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8'));
        if (!exports || !(`.${sub}` in exports)) deep.push(`${f}: ${spec}`);
      }
    }
    expect(deep).toEqual([]);
    expect([...zodEntries]).toEqual(['zod']);
  });

  it('builds no ICU segmenter for help or a table of plain text, one only for a joined emoji', async () => {
    const preload = fileURLToPath(new URL('../fixtures/count-segmenters.cjs', import.meta.url));
    const server = await testServer({ seed: true });
    const env = {
      CLINADMIN_BASE_URL: server.url,
      CLINADMIN_TOKEN: TOKEN,
      NODE_OPTIONS: `--require ${preload}`,
      COLUMNS: '40',
    };
    for (const args of [
      ['measures', 'create', '--help'],
      ['measures', 'list', '-o', 'table'],
    ]) {
      const r = await clinadmin(args, { env });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr, args.join(' ')).not.toContain('[segmenter made]');
    }
    // The preload can see one: a name holding a joined emoji, cut to fit 40 columns, is measured by graphemes.
    // serve refuses such a name (two would look alike), so it comes from a server that sends one anyway.
    const peer = await hostileServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([{ id: 'msr_e', test: 'tst_e', name: `Family ${'👨\u200d👩\u200d👧'.repeat(8)}` }]));
    });
    const joined = await clinadmin(['measures', 'list', '-o', 'table'], {
      env: { ...env, CLINADMIN_BASE_URL: peer.url },
    });
    expect(joined.exitCode, joined.stderr).toBe(0);
    expect(joined.stderr).toContain('[segmenter made]');
  });

  it('falls back to the HTTP parser without WebAssembly SIMD, as undici ships it', async () => {
    const server = await testServer({ seed: true });
    const env = { CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: TOKEN, UNDICI_NO_WASM_SIMD: '1' };
    const r = await clinadmin(['measures', 'list', '-o', 'json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout as string)).toHaveLength(
      ((await server.call('GET', '/diagnostic-measures')).body as unknown[]).length,
    );
    const { files } = await loaded(['measures', 'list', '-o', 'json'], env);
    expect(files.filter((f) => f.includes('node_modules'))).toEqual([]);
  });

  it('has the markers it looks for somewhere in the build, so the check above can fail', async () => {
    const dir = resolve(dist, 'chunks');
    const bundle = (await Promise.all((await readdir(dir)).map((f) => readFile(resolve(dir, f), 'utf8')))).join('');
    for (const marker of Object.values(MARKERS)) expect(bundle.includes(marker), marker).toBe(true);
  });
});
