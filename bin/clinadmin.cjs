#!/usr/bin/env node
'use strict';
// CommonJS on purpose: a CommonJS entry never starts Node's ES module loader (~4 ms of every run).
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // The version needs none of the command tree: answer it from a tiny module (start-up is a feature).
  process.stdout.write(`${require('../dist/version.cjs').VERSION}\n`);
} else {
  const v8 = require('node:v8');
  // undici parses HTTP in WebAssembly, and V8's optimising compile of it runs on threads that hold every
  // exit ~80 ms; the baseline compiler is ample for a CLI's requests.
  v8.setFlagsFromString('--liftoff-only');
  if (argv[0] !== 'serve') {
    // A command runs briefly and may hold a whole import: V8's young generation stays at its starting
    // size instead of growing to 32 MB (a 10,000-measure import peaks about 30 MB lower, no slower).
    // `serve` runs long and keeps V8's defaults. Both flags are set before any code loads, since V8
    // accepts a code cache only under the flags it was made with; serve, under others, compiles as usual.
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    const { join } = require('node:path');
    require('./code-cache.cjs').useCodeCache(join(__dirname, '..', 'dist'), require.main, process.env.CLINADMIN_TRAIN_CODE_CACHE === '1');
  }
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
