// The floor of a help page printed by commander (the design's parser): one command with two options,
// its help printed. The bench bundles it as the CLI is bundled and runs it with Node's compile cache.
import { Command } from 'commander';

const program = new Command('clinadmin');
program
  .command('measures')
  .command('create')
  .description('Create a diagnostic measure')
  .option('--name <name>', 'its name')
  .option('--test <code>', 'the test it belongs to');
program.parse(['measures', 'create', '--help'], { from: 'user' });
