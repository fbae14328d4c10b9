// Bundles the CLI with code splitting: a small entry chunk holds the command tree, and heavy
// dependencies land in chunks that only the commands using them import (start-up is a feature).
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';

const { version } = JSON.parse(await readFile('package.json', 'utf8'));

await rm('dist', { recursive: true, force: true });
await build({
  // completion.ts is an entry of its own so scripts/generate.mjs can import it.
  entryPoints: { cli: 'src/cli.ts', completion: 'src/core/completion.ts', version: 'src/version.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  // Some bundled CommonJS packages call require(); ESM output has none, so give each chunk one.
  banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
  define: { __CLINADMIN_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
});
