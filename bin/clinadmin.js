#!/usr/bin/env node
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // The version needs none of the command tree: answer it from a tiny module (start-up is a feature).
  const { VERSION } = await import('../dist/version.js');
  process.stdout.write(`${VERSION}\n`);
} else {
  const { run } = await import('../dist/cli.js');
  // A reader that stops early (`| head`) is not an error: stop quietly, as Unix tools do.
  process.stdout.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  const code = await run(argv);
  // Exit once the output is flushed: an HTTP pool's idle timers would otherwise hold the process open.
  const flushed = (stream) => new Promise((resolve) => stream.write('', resolve));
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}
