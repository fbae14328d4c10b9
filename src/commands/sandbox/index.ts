import { type Command, Option } from 'commander';
import type { Ctx, RunState } from '../../context.js';
import { collect, examples, optsOf } from '../shared.js';
import type { SandboxVerb } from './sandbox-run.js';

const quiet = () => new Option('-q, --quiet', 'print nothing on stderr (the JSON answer still goes to stdout)');

/** `clinadmin sandbox`: serve's test-suite endpoints, against the configured server. */
export function sandboxCommand(cmd: Command, ctx: Ctx, state: RunState): Command {
  const run = async (verb: SandboxVerb, c: Command, ...args: (string | undefined)[]) => {
    const { sandboxAction } = await import('./sandbox-run.js');
    const opts = await optsOf(c, ({ z, wholeNumber }) => ({ expect: z.optional(wholeNumber(0)) }));
    state.exitCode = await sandboxAction(ctx, verb, opts, args);
  };
  cmd.addHelpText(
    'after',
    `
For a test suite that uses clinadmin serve as its double (a token marked admin when serve starts:
--token TOKEN:ACCOUNT:admin; a real service has none of it).
${examples(
  'clinadmin sandbox load state.json -q',
  'clinadmin sandbox snapshot seeded',
  'clinadmin sandbox reset seeded          # between two tests',
  'clinadmin sandbox mark app-start -q && ./run-the-app',
  'clinadmin sandbox requests --since app-start --method POST --path "/insurance-coverages*" --expect 3',
)}`,
  );
  cmd
    .command('snapshot')
    .description("Save the server's whole state under a name (a file beside its data file)")
    .argument('<name>', 'letters, digits, ".", "_" and "-"')
    .addOption(quiet())
    .addHelpText(
      'after',
      examples('clinadmin sandbox snapshot seeded', 'clinadmin sandbox snapshot before-import -o json'),
    )
    .action((name: string, _o: unknown, c: Command) => run('snapshot', c, name));
  cmd
    .command('reset')
    .description(
      'Restore a snapshot, or without a name the state the server started with (or last loaded); ' +
        'clears the request journal',
    )
    .argument('[name]', 'the snapshot')
    .addOption(quiet())
    .addHelpText(
      'after',
      examples('clinadmin sandbox reset seeded', 'clinadmin sandbox reset   # as the server started'),
    )
    .action((name: string | undefined, _o: unknown, c: Command) => run('reset', c, name));
  cmd
    .command('snapshots')
    .description('List the saved snapshots: name, when, and how many records each holds')
    .addOption(quiet())
    .addHelpText('after', examples('clinadmin sandbox snapshots', 'clinadmin sandbox snapshots -o json'))
    .action((_o: unknown, c: Command) => run('snapshots', c));
  cmd
    .command('load')
    .description(
      "Replace the server's whole state with a file's (a data file, or what measures export or coverages list " +
        '-o json write), in one step; reset without a name returns to it',
    )
    .argument('<file>', 'the state, as serve --load reads it')
    .option('--merge', 'add the records and replace those with the same id, keeping the rest')
    .addOption(quiet())
    .addHelpText(
      'after',
      examples(
        'clinadmin sandbox load state.json',
        'clinadmin coverages list -o json > covs.json && clinadmin sandbox load covs.json --merge',
      ),
    )
    .action((file: string, _o: unknown, c: Command) => run('load', c, file));
  const contracts = cmd
    .command('contracts')
    .description('The contracts coverages may name')
    .addHelpText(
      'after',
      examples('clinadmin sandbox contracts add ctr_globex_2027 --insured org_central_lab --insurer org_globex'),
    );
  contracts
    .command('add')
    .description('Add a contract to the server, so coverages for it can be created')
    .argument('<id>', 'the contract id, e.g. ctr_globex_2027')
    .requiredOption('--insured <org>', 'the insured organization')
    .requiredOption('--insurer <org>', 'the insurer organization')
    .option('--insurer-type <type>', "the insurer's type, copied to its coverages")
    .option('--insurer-subtype <subtype>', "the insurer's subtype, copied to its coverages")
    .addOption(quiet())
    .addHelpText(
      'after',
      examples('clinadmin sandbox contracts add ctr_globex_2027 --insured org_central_lab --insurer org_globex'),
    )
    .action((id: string, _o: unknown, c: Command) => run('contracts-add', c, id));
  const faults = cmd
    .command('faults')
    .description('Faults serve injects, set while it runs: on top of those it started with, until cleared or a reset')
    .addHelpText(
      'after',
      examples(
        'clinadmin sandbox faults set --fail-on POST:/insurance-coverages:500 --latency 50-200',
        'clinadmin sandbox faults clear',
      ),
    );
  faults
    .command('set')
    .description(
      'Replace the faults set at run time: answer a matching request with that status, and delay every answer',
    )
    .option(
      '--fail-on <rule>',
      "METHOD:PATH-PATTERN:STATUS, as serve's --fail-on: * in the path matches any text, METHOD may be *, a status " +
        'from 400 to 599; repeatable',
      collect,
    )
    .option(
      '--latency <ms>',
      'delay every answer by MS, or a random MIN-MAX milliseconds (at most 60000), in place of serve --latency',
    )
    .addOption(quiet())
    .addHelpText(
      'after',
      examples(
        'clinadmin sandbox faults set --fail-on POST:/insurance-coverages:500',
        'clinadmin sandbox faults set --fail-on "*:/notifications*:503" --latency 100-300',
      ),
    )
    .action((_o: unknown, c: Command) => run('faults-set', c));
  faults
    .command('clear')
    .description('Clear the faults set at run time (those serve started with stay); a reset clears them too')
    .addOption(quiet())
    .addHelpText('after', examples('clinadmin sandbox faults clear'))
    .action((_o: unknown, c: Command) => run('faults-clear', c));
  faults
    .command('list')
    .description('Show the faults set at run time')
    .addOption(quiet())
    .addHelpText('after', examples('clinadmin sandbox faults list -o json'))
    .action((_o: unknown, c: Command) => run('faults-list', c));
  cmd
    .command('capture')
    .description(
      'Copy every measure, coverage and notification of the server the profile points at (GETs of the lists ' +
        'only) into a file serve --load starts from, with the contracts the coverages name',
    )
    .requiredOption('--out <file>', 'the file to write (whole, by a rename)')
    .addOption(quiet())
    .addHelpText(
      'after',
      examples(
        'clinadmin sandbox capture --out today.json --profile prod --timeout 120',
        'clinadmin serve --port 0 --load today.json   # rehearse against a copy',
      ),
    )
    .action(async (_o: unknown, c: Command) => {
      const { captureAction } = await import('./capture-run.js');
      state.exitCode = await captureAction(ctx, await optsOf(c));
    });
  cmd
    .command('mark')
    .description('Mark the request journal here, so requests --since NAME lists only what came after')
    .argument('<name>', 'letters, digits, ".", "_" and "-"')
    .addOption(quiet())
    .addHelpText('after', examples('clinadmin sandbox mark app-start', 'clinadmin sandbox requests --since app-start'))
    .action((name: string, _o: unknown, c: Command) => run('mark', c, name));
  cmd
    .command('requests')
    .description('List the requests the server answered, oldest first (its request journal)')
    .option('--method <method>', 'only this method')
    .option(
      '--path <glob>',
      'only paths matching this glob (* matches any characters, / included); it must match a path serve answers',
    )
    .option('--status <status>', 'only answers with this status')
    .option('--account <account>', "only requests made with this account's token (one serve has; else exit 3)")
    .option('--since <mark>', 'only requests after this mark (sandbox mark NAME; an unknown one: exit 3)')
    .option(
      '--body <json>',
      'only requests whose body holds this JSON: its fields with equal values, extra fields ignored, and each ' +
        'array element matched in order by one of the array (extra elements ignored); needs serve --record-bodies',
    )
    .option(
      '--header <name=value>',
      'only requests that sent this header with exactly this value, repeatable (the journal keeps Idempotency-Key, ' +
        'X-Request-Id, Content-Type, User-Agent and those serve --journal-header names)',
      collect,
    )
    .addOption(
      new Option(
        '--expect <n>',
        'exit 0 when exactly N requests match, else 1 with the list and, when too few, the nearest requests',
      ),
    )
    .option('--clear', 'empty the request journal instead of listing it')
    .addOption(quiet())
    .addHelpText(
      'after',
      examples(
        'clinadmin sandbox requests',
        'clinadmin sandbox requests --method POST --path "/insurance-coverages*" --status 200 --expect 3',
        `clinadmin sandbox requests --since app-start --account acc_app --body '{"name":"CBC copay"}' --expect 1`,
        'clinadmin sandbox requests --since app-start --header Idempotency-Key=order-17 --expect 1',
        'clinadmin sandbox requests --clear',
      ),
    )
    .action((_o: unknown, c: Command) => run('requests', c));
  return cmd;
}
