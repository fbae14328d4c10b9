// The help floor: commander alone printing one command's help, shaped as the CLI's module (`run(argv,
// overrides)`), so that bench/floor-help.mjs runs it under Node and bench/binary.mjs builds it into a single
// executable exactly as the CLI is built: the same entry, asset and warmed code cache.
import { Command } from 'commander';

export async function run(_argv, overrides = {}) {
  const stdout = overrides.stdout ?? process.stdout;
  const program = new Command('clinadmin').exitOverride();
  program.configureOutput({ writeOut: (s) => stdout.write(s), writeErr: (s) => stdout.write(s) });
  program
    .command('measures')
    .command('create')
    .description('Create a diagnostic measure')
    .option('--name <name>', 'its name')
    .option('--test <code>', 'the test it belongs to');
  try {
    program.parse(['measures', 'create', '--help'], { from: 'user' });
  } catch (err) {
    // exitOverride throws once help is written: that is the floor's way out, as the CLI's is.
    if (err.code !== 'commander.helpDisplayed') throw err;
  }
  return 0;
}
