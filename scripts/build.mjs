// Bundles the CLI with code splitting: a small entry chunk holds the command tree, and heavy
// dependencies land in chunks that only the commands using them load (start-up is a feature).
// The chunks are written as CommonJS: Node 20 spends ~4 ms setting up its ES module loader, which a
// CommonJS entry never starts, and esbuild splits only ES modules, so each chunk is converted after.

import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';

const { version } = JSON.parse(await readFile('package.json', 'utf8'));
const lean = (name) => fileURLToPath(new URL(`./lean/${name}.cjs`, import.meta.url));

/** Node built-ins that a dependency loads eagerly but clinadmin never or rarely uses; see scripts/lean/. */
const STAND_INS = [
  { builtin: 'node:http2', importer: /undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/, path: lean('http2') },
  { builtin: 'node:child_process', importer: /commander[\\/]lib[\\/]command\.js$/, path: lean('child_process') },
  { builtin: 'node:assert', importer: /undici[\\/]lib[\\/]/, path: lean('assert') },
  {
    builtin: 'node:http',
    importer: /undici[\\/]lib[\\/](dispatcher[\\/]client|core[\\/]util)\.js$/,
    path: lean('http'),
  },
];

const leanBuiltins = {
  name: 'lean-builtins',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${[...new Set(STAND_INS.map((x) => x.builtin))].join('|')})$`) }, (args) => {
      const s = STAND_INS.find((x) => x.builtin === args.path && x.importer.test(args.importer));
      return s ? { path: s.path } : undefined;
    });
    // The parser without WebAssembly SIMD is a fallback for old CPUs: a file of its own, loaded if ever.
    b.onResolve({ filter: /llhttp-wasm\.(js|cjs)$/ }, (args) =>
      args.importer === lean('llhttp-wasm') ? { path: args.path, external: true } : { path: lean('llhttp-wasm') },
    );
  },
};

await rm('dist', { recursive: true, force: true });
const result = await build({
  // completion.ts and openapi.ts are entries of their own so scripts/generate.mjs can import them.
  entryPoints: {
    cli: 'src/cli.ts',
    completion: 'src/core/completion.ts',
    openapi: 'src/server/openapi.ts',
    version: 'src/version.ts',
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  // Source maps ship (without the sources: file and line are what a stack trace needs), so a trace under
  // --verbose names src/… files; the CommonJS pass below chains them through its inline map.
  sourcemap: 'inline',
  sourcesContent: false,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.cjs' },
  define: { __CLINADMIN_VERSION__: JSON.stringify(version) },
  plugins: [leanBuiltins],
  metafile: true,
  write: false,
  logLevel: 'warning',
});

// The assert stand-in is a plain assert(value); fail the build if a bundled undici file needs more.
for (const input of Object.keys(result.metafile.inputs).filter((p) => /undici[\\/]lib[\\/]/.test(p))) {
  const code = await readFile(input, 'utf8');
  const used = /\bassert\.(?!ok\()\w+\(/.exec(code);
  if (used) throw new Error(`${input} calls ${used[0]}, which scripts/lean/assert.cjs does not provide`);
}

for (const file of result.outputFiles) {
  // dynamic-import off: import() of a chunk becomes a lazy require(), so no ES module loader starts.
  const { code, map } = await transform(file.text, {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    supported: { 'dynamic-import': false },
    sourcemap: 'external',
    sourcesContent: false,
    sourcefile: file.path,
  });
  await mkdir(dirname(file.path), { recursive: true });
  const name = file.path.split(/[\\/]/).pop();
  await writeFile(file.path, `${code}//# sourceMappingURL=${name}.map\n`);
  await writeFile(`${file.path}.map`, map);
}

// The fallback parser, as undici ships it (a self-contained CommonJS file), for scripts/lean/llhttp-wasm.cjs.
const require = createRequire(import.meta.url);
await copyFile(require.resolve('undici/lib/llhttp/llhttp-wasm.js'), 'dist/llhttp-wasm.cjs');

// Everything is bundled, so the package ships the licences of what it bundles.
const packages = new Map();
for (const input of [...Object.keys(result.metafile.inputs), 'node_modules/undici/lib/llhttp/llhttp-wasm.js']) {
  const m = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(input);
  if (m) packages.set(m[1].replace(/\\/g, '/'), `node_modules/${m[1]}`);
}
const notices = [];
for (const [name, dir] of [...packages].sort(([a], [b]) => a.localeCompare(b))) {
  const { version: v, license } = JSON.parse(await readFile(`${dir}/package.json`, 'utf8'));
  const file = (await readdir(dir)).find((f) => /^licen[cs]e/i.test(f));
  if (!file) throw new Error(`${name} ships no licence file: say in scripts/build.mjs how its licence is met`);
  notices.push(`${name} ${v} (${license})\n\n${(await readFile(`${dir}/${file}`, 'utf8')).trim()}\n`);
}
await writeFile('dist/THIRD-PARTY-LICENSES.txt', notices.join(`\n${'-'.repeat(72)}\n\n`));
