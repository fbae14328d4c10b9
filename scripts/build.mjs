// Bundles the CLI with code splitting: a small entry chunk holds the command tree, and heavy
// dependencies land in chunks that only the commands using them load (start-up is a feature).
// The chunks are written as CommonJS, loaded by a plain require() that never starts the ES module loader
// (~4 ms on Node 20 when measured; not re-measured on 22-26, where the machine was too loaded to tell), and
// esbuild splits only ES modules, so each chunk is converted after.

import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { build, transform } from 'esbuild';
import { bundledNotices, noticesText } from './notices.mjs';

const { version } = JSON.parse(await readFile('package.json', 'utf8'));
await rm('dist', { recursive: true, force: true });
const result = await build({
  // completion.ts and openapi.ts are entries of their own so scripts/generate.mjs can import them.
  entryPoints: {
    cli: 'src/cli.ts',
    completion: 'src/commands/completion-scripts.ts',
    openapi: 'src/server/http/openapi.ts',
    version: 'src/version.ts',
    // The global options, read before the CLI loads (bin/clinadmin.cjs): commander and they are shared with it.
    globals: 'src/globals.ts',
    // clinadmin/testing (package.json's exports) and the serve process it starts: they load cli.cjs by its path.
    testing: 'src/testing/index.ts',
    'testing-serve': 'src/testing/child.ts',
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  minify: true,
  // Source maps ship (without the sources: file and line are what a stack trace needs), so a trace under
  // --verbose names src/… files; the CommonJS pass below chains them through its inline map.
  sourcemap: 'inline',
  sourcesContent: false,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.cjs' },
  define: { __CLINADMIN_VERSION__: JSON.stringify(version) },
  metafile: true,
  write: false,
  logLevel: 'warning',
});

for (const file of result.outputFiles) {
  // dynamic-import off: import() of a chunk becomes a lazy require(), so no ES module loader starts.
  const { code, map } = await transform(file.text, {
    format: 'cjs',
    platform: 'node',
    target: 'node22',
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

// Everything is bundled, so the package ships the licences of what it bundles.
await writeFile('dist/THIRD-PARTY-LICENSES.txt', noticesText(await bundledNotices(result.metafile)));

// clinadmin/testing's types (dist/types/testing/). The .cjs they describe is CommonJS, so the folder says so,
// and TypeScript reads these declarations as the module require() loads.
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'scripts/tsconfig.testing.json'], {
  stdio: 'inherit',
});
await writeFile('dist/types/package.json', `${JSON.stringify({ type: 'commonjs' })}\n`);
