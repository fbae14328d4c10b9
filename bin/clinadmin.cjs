#!/usr/bin/env node
'use strict';
// CommonJS on purpose: it parses and runs on any Node, down to the check of which Node this is.

// The Node lines the libraries bundled in dist/ need, checked before anything loads, so an older Node hears
// which Node it needs instead of a crash. A test holds this line to package.json's:
// engines: ^22.22.2 || ^24.15 || >=26
const [major, minor, patch] = process.versions.node.split('.').map(Number);
const supported =
  (major === 22 && (minor > 22 || (minor === 22 && patch >= 2))) || (major === 24 && minor >= 15) || major >= 26;
if (!supported) {
  const needs = 'Node.js 22 (22.22.2 or later), 24 (24.15 or later) or 26 and later';
  process.stderr.write(`error: clinadmin needs ${needs}; this is Node.js ${process.version}\n`);
  process.exit(1);
}

const argv = process.argv.slice(2);

/** The built CLI; a clone that was never built says how to build it instead of a MODULE_NOT_FOUND trace. */
function load(file) {
  const path = require('node:path');
  const root = path.join(__dirname, '..');
  const target = path.join(root, 'dist', file);
  try {
    return require(target);
  } catch (err) {
    if (err.code !== 'MODULE_NOT_FOUND' || require('node:fs').existsSync(target)) throw err;
    process.stderr.write(`error: clinadmin is not built (no dist/${file}); run \`npm run build\` in ${root}\n`);
    process.exit(1);
  }
}

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // The version needs none of the command tree: answer it from a tiny module (start-up is a feature).
  process.stdout.write(`${load('version.cjs').VERSION}\n`);
} else {
  // Node prints its warnings raw; run() writes them through the output layer's writer, escaped.
  process.removeAllListeners('warning');
  require('./compile-cache.cjs').enableCompileCache(process.env);
  // Under --verbose a stack trace names our source files and lines: Node reads the shipped source maps of
  // what loads from here on (only then, as reading them costs start-up). --verbose as commander reads it
  // (`-vo json` too, never the value of --fields), by the program's own global options.
  if (load('globals.cjs').earlyGlobals(argv).verbose) process.setSourceMapsEnabled(true);
  // A reader that stops early (`| head`) is not an error: stop quietly, as Unix tools do.
  process.stdout.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  // run() resolves once its output is flushed; exit then, as an HTTP pool's idle timers would otherwise
  // hold the process open.
  load('cli.cjs')
    .run(argv)
    .then((code) => process.exit(code));
}
