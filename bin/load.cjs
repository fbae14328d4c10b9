'use strict';
// Loads dist/ through vm.Script, a public API, rather than require(), so V8's compiled code is kept between
// runs. The cache is written after the command ran, so it also holds the functions compiled while it ran,
// which module.enableCompileCache() leaves out (it keeps only what V8 compiled before running): a request
// command starts ~20 ms sooner on Node 24 and ~40 ms on Node 20 (BENCHMARKS.md).
// Only files whose names carry their content's hash are cached, as V8 checks a cache against the source's
// length alone. The cache lives in the user's cache folder, never in the package; CLINADMIN_NO_CODE_CACHE or
// NODE_DISABLE_COMPILE_CACHE turns it off, and one that cannot be read or written costs speed, never output.
const vm = require('node:vm');
const fs = require('node:fs');
const path = require('node:path');

const HASHED = /-[A-Z0-9]{8}\.cjs$/;
/** Commands whose first run adds its functions to the cache; past this many, only missing files are written. */
const MAX_COMMANDS = 100;
const env = process.env;
const base = env.XDG_CACHE_HOME || (env.HOME ? path.join(env.HOME, '.cache') : '');
const dir =
  env.CLINADMIN_NO_CODE_CACHE || env.NODE_DISABLE_COMPILE_CACHE || !base
    ? undefined
    : path.join(base, 'clinadmin', `v8-${process.version}-${process.arch}`);

const modules = new Map();
/** Each cacheable script compiled this run, and whether V8 took a cache for it. */
const scripts = [];

/** require() for the bundle: its own files (relative paths) through vm.Script, Node's built-ins as usual. */
function load(file) {
  const known = modules.get(file);
  if (known) return known.exports;
  const module = { exports: {} };
  modules.set(file, module);
  const cacheFile = dir && HASHED.test(file) ? path.join(dir, path.basename(file, '.cjs')) : undefined;
  let cachedData;
  try {
    if (cacheFile) cachedData = fs.readFileSync(cacheFile);
  } catch {
    // No cache yet: this run writes one.
  }
  const source = fs.readFileSync(file, 'utf8');
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new vm.Script(wrapped, { filename: file, cachedData });
  if (cacheFile) scripts.push({ script, cacheFile, hit: cachedData !== undefined && !script.cachedDataRejected });
  const here = path.dirname(file);
  const req = (id) => (id.startsWith('./') || id.startsWith('../') ? load(path.resolve(here, id)) : require(id));
  try {
    script.runInThisContext().call(module.exports, module.exports, req, module, file, here);
  } catch (err) {
    modules.delete(file);
    throw err;
  }
  return module.exports;
}

/**
 * After the command: writes the cache of each file that had none (or one V8 refused), and of every file
 * the first time a command runs (`measures list`, `measures create --help`), so the cache gathers what
 * each command compiles. A later run of a known command writes nothing.
 */
function save(argv) {
  if (!dir || scripts.length === 0) return;
  const words = argv.filter((a) => /^[a-z][a-z0-9-]*$/.test(a)).slice(0, 2);
  const command = `${words.join(' ')}${argv.includes('--help') || argv.includes('-h') ? ' --help' : ''}`;
  const index = path.join(dir, 'commands');
  let commands = [];
  try {
    commands = fs.readFileSync(index, 'utf8').split('\n').filter(Boolean);
  } catch {
    // No command has run yet.
  }
  const first = !commands.includes(command) && commands.length < MAX_COMMANDS;
  if (!first && scripts.every((s) => s.hit)) return;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const s of scripts) if (first || !s.hit) write(s.cacheFile, s.script.createCachedData());
    if (first) write(index, `${[...commands, command].join('\n')}\n`);
  } catch {
    // A read-only or full disk: the next run compiles again, as it would without a cache.
  }
}

/** Atomic, owner-only: a run reading the cache meanwhile sees the old file or the new, never half of one. */
function write(file, data) {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, data, { mode: 0o600 });
  fs.renameSync(temp, file);
}

module.exports = { load, save };
