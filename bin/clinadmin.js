#!/usr/bin/env node
import { run } from '../dist/cli.js';

// A reader that stops early (`| head`) is not an error: stop quietly, as Unix tools do.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
process.exitCode = await run(process.argv.slice(2));
