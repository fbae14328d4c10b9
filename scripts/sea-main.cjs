'use strict';
// The single executable's entry (scripts/build-binary.mjs bundles it with the CLI into one script): the
// shim bin/clinadmin.cjs is, less what a file on disk needs (Node's compile cache, shipped source maps).
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
  require('../src/cli.ts')
    .run(argv)
    .then((code) => process.exit(code));
}
