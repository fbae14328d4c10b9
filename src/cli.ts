import { Command, CommanderError, Option } from 'commander';
import { buildGroup, commandGroups } from './commands/index.js';
import { type Ctx, defaultContext } from './context.js';
import { CliError, EXIT } from './errors.js';
import { VERSION } from './version.js';

export const EXIT_CODES_HELP = `
Exit codes:
  0    success
  1    failure from the API or the network
  2    usage error or invalid input (nothing was sent)
  3    not found
  4    authentication refused or not configured
  130  interrupted`;

/** Where an action leaves its exit code when it finishes without an error (import's partial failure). */
export interface RunState {
  exitCode: number;
}

/** Global options that take a value, so the group named on a command line can be found past them. */
const VALUE_OPTIONS = new Set(['--profile', '--base-url', '-o', '--output', '--fields', '--query', '--timeout']);

function groupNamed(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

/** The program; with `argv`, only the group it names is built in full (`undefined` builds every group). */
export function createProgram(ctx: Ctx, state: RunState = { exitCode: 0 }, argv?: readonly string[]): Command {
  const wanted = argv === undefined ? undefined : groupNamed(argv);
  const program = new Command('clinadmin')
    .description('Administer diagnostic measures, insurance coverages and notifications from the terminal.')
    .version(VERSION, '-V, --version', 'print the version')
    .addOption(new Option('--profile <name>', 'config profile to use (env CLINADMIN_PROFILE)'))
    .addOption(new Option('--base-url <url>', 'API base URL (env CLINADMIN_BASE_URL)'))
    .addOption(
      new Option('-o, --output <format>', 'output format; table at a terminal, json otherwise').choices([
        'table',
        'json',
        'ndjson',
        'csv',
        'yaml',
      ]),
    )
    .addOption(new Option('--fields <list>', 'comma-separated fields to show (columns and JSON keys)'))
    .addOption(new Option('--query <expr>', 'JMESPath expression applied to JSON output'))
    .addOption(new Option('--timeout <seconds>', 'request timeout in seconds').default('30'))
    .addOption(new Option('--no-color', 'turn colors off (also NO_COLOR)'))
    .addOption(new Option('-v, --verbose', 'print requests, timings and error details to stderr'))
    .addHelpText(
      'after',
      `
Examples:
  $ clinadmin serve --seed                 # a local reference API on http://127.0.0.1:4010
  $ clinadmin login --base-url http://127.0.0.1:4010 --token-stdin < token.txt
  $ clinadmin measures list
  $ clinadmin coverages list -o json | jq '.[].name'
${EXIT_CODES_HELP}`,
    )
    .showSuggestionAfterError(true);

  for (const group of commandGroups) {
    program.addCommand(buildGroup(group, ctx, state, argv === undefined || group.name === wanted), {
      hidden: group.hidden,
    });
  }

  const configure = (cmd: Command) => {
    cmd.exitOverride();
    cmd.configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
      // Our own renderer prints usage errors, so that every error looks the same.
      outputError: () => undefined,
    });
    for (const sub of cmd.commands) configure(sub);
  };
  configure(program);
  return program;
}

export async function run(argv: string[], overrides: Partial<Ctx> = {}): Promise<number> {
  const ctx = defaultContext(overrides);
  const state: RunState = { exitCode: 0 };
  const program = createProgram(ctx, state, argv);
  let code: number;
  try {
    await program.parseAsync(argv, { from: 'user' });
    code = state.exitCode;
  } catch (err) {
    code = renderError(err, ctx, argv.includes('--verbose') || argv.includes('-v'));
  }
  await ctx.flush?.();
  return code;
}

/** The one place that turns an error into words on stderr and an exit code. */
export function renderError(err: unknown, ctx: Ctx, verbose: boolean): number {
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') {
      return EXIT.ok;
    }
    const message = err.message.replace(/^error:\s*/i, '');
    ctx.stderr.write(`error: ${message}\n`);
    ctx.stderr.write(`hint: run the command with --help to see its options and examples\n`);
    return EXIT.usage;
  }
  if (err instanceof CliError) {
    ctx.stderr.write(`error: ${err.message}\n`);
    for (const d of err.details) ctx.stderr.write(`  - ${d}\n`);
    if (err.hint) ctx.stderr.write(`hint: ${err.hint}\n`);
    if (verbose && err.cause) ctx.stderr.write(`cause: ${String((err.cause as Error).stack ?? err.cause)}\n`);
    return err.exitCode;
  }
  const e = err as Error;
  ctx.stderr.write(`error: unexpected: ${e?.message ?? String(err)}\n`);
  if (verbose && e?.stack) ctx.stderr.write(`${e.stack}\n`);
  else ctx.stderr.write('hint: run again with --verbose for details, and report it if it persists\n');
  return EXIT.failure;
}
