// Generates src/resources/facts.ts from the zod schemas, then completions/, the command reference
// (docs/reference/commands.md, and the man pages in docs/man/ with package.json's `man` list) and
// openapi.json from the built bundle, so none of them drifts from the code. `--check` changes nothing
// and exits 1 when a file is stale (tests use it).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { build } from 'esbuild';
import { manPages, markdownReference } from './man.mjs';

const check = process.argv.includes('--check');
let stale = 0;

/** Writes `text` to `path` when it differs (or, with --check, says it is stale); true when it differed. */
function update(path, text) {
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch {}
  if (current === text) return false;
  stale++;
  if (check) console.error(`${path} is stale: run npm run generate`);
  else {
    writeFileSync(path, text);
    console.log(`wrote ${path}`);
  }
  return true;
}

// The facts come from the TypeScript sources (the schemas), bundled for this run only.
const tmp = mkdtempSync(join(tmpdir(), 'clinadmin-generate-'));
try {
  const outfile = join(tmp, 'derive.mjs');
  await build({ entryPoints: ['src/resources/derive.ts'], bundle: true, format: 'esm', platform: 'node', outfile });
  const { factsSource } = await import(outfile);
  // New facts change what the command tree shows, so the bundle is rebuilt before it is read.
  if (update('src/resources/facts.ts', factsSource()) && !check) {
    execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

const { createProgram, TOPIC_SUMMARIES } = await import('../dist/cli.cjs');
const { bashCompletion, zshCompletion, fishCompletion } = await import('../dist/completion.cjs');
const ctx = {
  stdin: new PassThrough(),
  stdout: new PassThrough(),
  stderr: new PassThrough(),
  env: {},
  cwd: '.',
  isInteractive: false,
  waitForSignal: () => ({ promise: new Promise(() => {}), cancel() {} }),
};
const program = createProgram(ctx, undefined, true);

const targets = [
  ['completions/clinadmin.bash', bashCompletion(program, TOPIC_SUMMARIES)],
  ['completions/_clinadmin', zshCompletion(program, TOPIC_SUMMARIES)],
  ['completions/clinadmin.fish', fishCompletion(program, TOPIC_SUMMARIES)],
];
targets.push(['docs/reference/commands.md', markdownReference(program)]);
// Man pages, one a command, listed in package.json's `man` so npm installs them with the package.
const pages = manPages(program, JSON.parse(readFileSync('package.json', 'utf8')).version);
for (const [file, text] of pages) targets.push([`docs/man/${file}`, text]);
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
pkg.man = [...pages.keys()].map((f) => `./docs/man/${f}`);
targets.push(['package.json', `${JSON.stringify(pkg, null, 2)}\n`]);
// The API's contract, for readers and tools, as `clinadmin openapi` prints it from the built bundle.
const { openapiText } = await import('../dist/openapi.cjs');
targets.push(['openapi.json', await openapiText()]);

mkdirSync('docs/man', { recursive: true });
mkdirSync('docs/reference', { recursive: true });
for (const [path, text] of targets) update(path, text);
// A page whose command is gone goes too.
for (const file of readdirSync('docs/man')) {
  if (pages.has(file)) continue;
  stale++;
  if (check) console.error(`docs/man/${file} has no command: run npm run generate`);
  else rmSync(`docs/man/${file}`);
}
process.exitCode = check && stale > 0 ? 1 : 0;
