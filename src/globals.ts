import { Command, Option } from 'commander';
import { FORMATS } from './output/format-names.js';

/** The program's global options, each defined here once: createProgram adds them, earlyGlobals reads them. */
export function globalOptions(): Option[] {
  return [
    new Option('--profile <name>', 'config profile to use (env CLINADMIN_PROFILE)'),
    new Option('--base-url <url>', 'API base URL (env CLINADMIN_BASE_URL)'),
    new Option('-o, --output <format>', 'output format; table at a terminal, json otherwise').choices(FORMATS),
    new Option('--fields <list>', 'comma-separated fields to show (columns and JSON keys)'),
    new Option('--query <expr>', 'JMESPath expression applied to JSON output'),
    new Option(
      '--timeout <seconds>',
      'deadline for the whole command, in seconds: every request, retry, Retry-After wait, page and ' +
        'record; time at a prompt not counted. Without it, each request alone has 30 s',
    ),
    new Option('--no-color', 'turn colors off (also NO_COLOR)'),
    new Option(
      '--no-pager',
      'write a long list or record straight to the terminal, not through less (also CLINADMIN_PAGER=)',
    ),
    new Option('-v, --verbose', 'print requests, timings and error details to stderr'),
  ];
}

/**
 * The global options of a command line, read by commander itself before the program is built: bin/ turns
 * source maps on under --verbose before the CLI loads, and run() knows --no-color before it wraps the
 * streams. It is the program's own first pass over the line (commander parses the global options wherever
 * they stand): `-vo json` is --verbose with -o json, `--fields -v` is the fields `-v`, and after an option
 * this pass does not know, such as `--name -v`, the -v is --verbose (commander then refuses --name for its
 * missing value). What a refused value (`-o xml`) leaves is what came before it: the program says why.
 */
export function earlyGlobals(argv: readonly string[]): { verbose: boolean; color: boolean } {
  const pass = new Command()
    .allowUnknownOption()
    .allowExcessArguments()
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined, outputError: () => undefined });
  for (const option of globalOptions()) pass.addOption(option);
  try {
    pass.parseOptions([...argv]);
  } catch {
    // The program's own parse refuses the same line, with its words.
  }
  const { verbose, color } = pass.opts();
  return { verbose: verbose === true, color: color !== false };
}
