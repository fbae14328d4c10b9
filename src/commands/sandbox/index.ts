import { type Command, Option } from 'commander';
import type { Ctx, RunState } from '../../context.js';
import { examples, optsOf } from '../shared.js';

/** `clinadmin sandbox`: serve's test-suite endpoints, against the configured server. */
export function sandboxCommand(cmd: Command, ctx: Ctx, state: RunState): Command {
  const run = async (verb: 'snapshot' | 'reset' | 'snapshots' | 'requests', c: Command, arg?: string) => {
    const { sandboxAction } = await import('./sandbox-run.js');
    const opts = await optsOf(c, ({ z, wholeNumber }) => ({ expect: z.optional(wholeNumber(0)) }));
    state.exitCode = await sandboxAction(ctx, verb, opts, arg);
  };
  cmd.addHelpText(
    'after',
    `
For a test suite that uses clinadmin serve as its double (a token marked admin when serve starts:
--token TOKEN:ACCOUNT:admin; a real service has none of it).
${examples(
  'clinadmin sandbox snapshot seeded',
  'clinadmin sandbox reset seeded          # between two tests',
  'clinadmin sandbox requests --method POST --path "/insurance-coverages*" --expect 3',
)}`,
  );
  cmd
    .command('snapshot')
    .description("Save the server's whole state under a name (a file beside its data file)")
    .argument('<name>', 'letters, digits, ".", "_" and "-"')
    .addHelpText(
      'after',
      examples('clinadmin sandbox snapshot seeded', 'clinadmin sandbox snapshot before-import -o json'),
    )
    .action((name: string, _o: unknown, c: Command) => run('snapshot', c, name));
  cmd
    .command('reset')
    .description('Restore a snapshot, or without a name the state the server started with; clears the request journal')
    .argument('[name]', 'the snapshot')
    .addHelpText(
      'after',
      examples('clinadmin sandbox reset seeded', 'clinadmin sandbox reset   # as the server started'),
    )
    .action((name: string | undefined, _o: unknown, c: Command) => run('reset', c, name));
  cmd
    .command('snapshots')
    .description('List the saved snapshots: name, when, and how many records each holds')
    .addHelpText('after', examples('clinadmin sandbox snapshots', 'clinadmin sandbox snapshots -o json'))
    .action((_o: unknown, c: Command) => run('snapshots', c));
  cmd
    .command('requests')
    .description('List the requests the server answered, oldest first (its request journal)')
    .option('--method <method>', 'only this method')
    .option('--path <glob>', 'only paths matching this glob (* matches any characters, / included)')
    .option('--status <status>', 'only answers with this status')
    .addOption(new Option('--expect <n>', 'exit 0 when exactly N requests match, else 1 with the list'))
    .addHelpText(
      'after',
      examples(
        'clinadmin sandbox requests',
        'clinadmin sandbox requests --method POST --path "/insurance-coverages*" --status 200 --expect 3',
      ),
    )
    .action((_o: unknown, c: Command) => run('requests', c));
  return cmd;
}
