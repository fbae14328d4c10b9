#!/usr/bin/env node
'use strict';
// CommonJS on purpose: on Node 20 a CommonJS entry never starts the ES module loader (~4 ms of every run).
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // The version needs none of the command tree: answer it from a tiny module (start-up is a feature).
  process.stdout.write(`${require('../dist/version.cjs').VERSION}\n`);
} else {
  require('./compile-cache.cjs').enableCompileCache(process.env);
  // Under --verbose a stack trace names our source files and lines: Node reads the shipped source maps of
  // what loads from here on (only then, as reading them costs start-up).
  if (argv.includes('--verbose') || argv.includes('-v')) process.setSourceMapsEnabled(true);
  // A reader that stops early (`| head`) is not an error: stop quietly, as Unix tools do.
  process.stdout.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  // run() resolves once its output is flushed; exit then, as an HTTP pool's idle timers would otherwise
  // hold the process open.
  require('../dist/cli.cjs')
    .run(argv)
    .then((code) => process.exit(code));
}
