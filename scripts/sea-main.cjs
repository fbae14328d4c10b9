'use strict';
// The single executable's entry (scripts/build-binary.mjs): the shim bin/clinadmin.cjs is, with the CLI
// read from the file's own assets. V8 compiles it with the code cache the build made after running typical
// commands, so it holds the functions those ran (useCodeCache's holds only what compiles before any runs).
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // The version needs none of the command tree: its module is a string (start-up is a feature).
  process.stdout.write(`${require('../src/version.ts').VERSION}\n`);
} else {
  // A reader that stops early (`| head`) is not an error: stop quietly, as Unix tools do.
  process.stdout.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  require('./sea-load.cjs')
    .loadCli(require('node:sea'), require)
    .run(argv)
    .then((code) => process.exit(code));
}
