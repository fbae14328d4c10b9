// The test files of a file: those whose `// Covers:` lines name it or a folder holding it (for a folder, also
// those naming something inside it), one per line, for `npx vitest run` (docs/contributing.md, "Finding a
// file's tests"). Usage: npm run tests-for -- src/formats/csv/columns.ts [PATH...]. With --headers it prints
// every test file's entries as JSON instead: test/unit/findable.test.ts checks the headers through this one reader.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const HEADER = '// Covers:';
const root = fileURLToPath(new URL('..', import.meta.url));
// npm runs a script in the package's folder and names the folder it was started from in INIT_CWD.
const from = process.env.INIT_CWD ?? process.cwd();

/** A path as the headers write it: from the repo root, with `/`, a folder ending in `/`. */
function asWritten(arg) {
  const full = resolve(from, arg);
  const path = relative(root, full).split(sep).join('/');
  if (path === '' || path.startsWith('..') || isAbsolute(path)) throw new Error(`${arg} is not inside the repository`);
  if (!existsSync(full)) throw new Error(`${arg}: no such file or folder`);
  return statSync(full).isDirectory() ? `${path}/` : path;
}

/** The entries of a test file's header: its leading `// Covers:` lines. */
function coversOf(text) {
  const entries = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith(HEADER)) break;
    entries.push(
      ...line
        .slice(HEADER.length)
        .split(/[\s,]+/)
        .filter(Boolean),
    );
  }
  return entries;
}

const names = (entry, path) =>
  entry === path || (entry.endsWith('/') && path.startsWith(entry)) || (path.endsWith('/') && entry.startsWith(path));

const tests = readdirSync(resolve(root, 'test'), { recursive: true, encoding: 'utf8' })
  .map((f) => `test/${f.split(sep).join('/')}`)
  .filter((f) => f.endsWith('.test.ts'))
  .sort();
const covers = new Map(tests.map((t) => [t, coversOf(readFileSync(resolve(root, t), 'utf8'))]));

const args = process.argv.slice(2);
if (args[0] === '--headers') {
  process.stdout.write(`${JSON.stringify(Object.fromEntries(covers))}\n`);
  process.exit(0);
}
if (args.length === 0) {
  process.stderr.write('usage: npm run tests-for -- PATH...   (a file or folder, e.g. src/formats/csv/columns.ts)\n');
  process.exit(2);
}
let paths;
try {
  paths = args.map(asWritten);
} catch (error) {
  process.stderr.write(`tests-for: ${error.message}\n`);
  process.exit(2);
}
const found = tests.filter((t) => paths.some((p) => covers.get(t).some((e) => names(e, p))));
if (found.length === 0) {
  // An empty list would make `npx vitest run $(…)` run every test: say so and fail instead.
  process.stderr.write(`tests-for: no test file's // Covers: names ${paths.join(' ')}\n`);
  process.exit(1);
}
process.stdout.write(`${found.join('\n')}\n`);
