import { Command, CommanderError, Help } from 'commander';
import { TOPIC_SUMMARIES } from './commands/help/topic-list.js';

/** The help topics, for scripts/generate.mjs to complete `clinadmin help <TAB>` as `completion` does. */
export { TOPIC_SUMMARIES };

import { commandGroups, type Group } from './commands/index.js';
import { RunReplaced, replaceRuns } from './commands/shared.js';
import { distance, unknownOption } from './commands/suggest.js';
import { type Ctx, defaultContext, type RunF, type RunState } from './context.js';
import { CliError, EXIT, EXIT_CODES_HELP, UsageError } from './errors.js';
import { earlyGlobals, globalOptions } from './globals.js';
import type { Pager } from './output/pager.js';
import { guardedContext, pageTo, terminalOut } from './output/terminal.js';
import { helpWidth, visible } from './output/text.js';
import { writeOut } from './output/text-out.js';
import { routeWarnings } from './output/warnings.js';
import { wrapText } from './output/wrap.js';
import { VERSION } from './version.js';

/**
 * The program. Each group starts as its name and description; the one commander dispatches to is
 * filled in its preSubcommand hook, so `--help` and every command pay for one group's options, not
 * all of them (start-up is a feature), and commander stays the only parser of the command line.
 * `full` fills every group at once (completion scripts, docs/reference/ and the man pages).
 */
export function createProgram(ctx: Ctx, state: RunState = { exitCode: 0 }, full = false, runF?: RunF): Command {
  const program = new Command('clinadmin')
    .description('Administer diagnostic measures, insurance coverages and notifications from the terminal.')
    .version(VERSION, '-V, --version', 'print the version')
    .addHelpText(
      'after',
      `
Examples:
  $ clinadmin serve --seed                 # a local reference API on http://127.0.0.1:4010
  $ clinadmin login --base-url http://127.0.0.1:4010 --token-stdin < token.txt
  $ clinadmin measures list
  $ clinadmin coverages list -o json | jq '.[].name'

Help topics (clinadmin help TOPIC):
${Object.entries(TOPIC_SUMMARIES)
  .map(([name, summary]) => `  ${name.padEnd(23)}${summary}`)
  .join('\n')}
${EXIT_CODES_HELP}`,
    )
    .showSuggestionAfterError(true);
  for (const option of globalOptions()) program.addOption(option);

  const filled = new Set<string>();
  const fill = (group: Group) => {
    if (filled.has(group.name)) return;
    filled.add(group.name);
    const cmd = program.commands.find((c) => c.name() === group.name)!;
    group.make(cmd, ctx, state);
    configure(cmd);
  };
  const fillAll = () => {
    for (const group of commandGroups) fill(group);
  };
  for (const group of commandGroups) {
    program.addCommand(new Command(group.name).description(group.description), { hidden: group.hidden });
  }
  program.hook('preSubcommand', (_root, sub) => {
    // `help` is the program's own command and fills what it names itself.
    const group = commandGroups.find((g) => g.name === sub.name());
    if (group?.wantsAllGroups) fillAll();
    else if (group) fill(group);
  });
  // `help GROUP [VERB]` fills the group first, so it shows the same help as `GROUP [VERB] --help`.
  program.helpCommand(false);
  program.addCommand(
    new Command('help')
      .description(`Show help for a command or a topic (${Object.keys(TOPIC_SUMMARIES).join(', ')})`)
      .argument('[command...]', 'the command, e.g. measures create, or a topic')
      .addHelpText(
        'after',
        '\nExamples:\n  $ clinadmin help measures\n  $ clinadmin help measures create\n  $ clinadmin help csv\n',
      )
      .action(async (words: string[]) => {
        // A topic is a page about a format, not a command (gh's `gh help formatting`).
        if (words.length === 1 && !program.commands.some((c) => c.name() === words[0])) {
          const { TOPICS } = await import('./commands/help/topics.js');
          const topic = TOPICS[words[0]];
          if (topic) return writeOut(ctx, wrapText(topic.text(), helpWidth([ctx.stdout, ctx.stderr], ctx.env)));
        }
        let cmd = program;
        for (const [i, word] of words.entries()) {
          const next = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
          if (!next) {
            const shown = cmd.createHelp().visibleCommands(cmd);
            const known = cmd.commands.filter((c) => shown.includes(c)).map((c) => c.name());
            // Topics are offered beside commands at the top level only.
            const topics = cmd === program ? Object.keys(TOPIC_SUMMARIES) : [];
            throw new UsageError(`unknown command ${words.slice(0, i + 1).join(' ')}`, suggest(word, known, topics));
          }
          if (cmd === program) fill(commandGroups.find((g) => g.name === next.name())!);
          cmd = next;
        }
        cmd.outputHelp();
      }),
  );

  const width = helpWidth([ctx.stdout, ctx.stderr], ctx.env);
  const configure = (cmd: Command) => {
    // An unknown option comes with the nearest one this command takes (commander's own guess stops at three
    // edits, so `--name` found no `--name-like`).
    cmd.exitOverride((err) => {
      throw err.code === 'commander.unknownOption' ? unknownOption(err, cmd) : err;
    });
    // A command's help ends with the options it inherits, under gh's heading, all fitted to the terminal.
    cmd.configureHelp({
      showGlobalOptions: cmd !== program,
      styleTitle: (title) => (title === 'Global Options:' ? 'Inherited options:' : title),
      // A full-screen reader writes no data: -o, --fields, --query and --no-pager do nothing there; not in its help.
      visibleGlobalOptions(c: Command) {
        const all = Help.prototype.visibleGlobalOptions.call(this, c);
        return SCREEN_ONLY.has(c.name()) ? all.filter((o) => !DATA_FLAGS.has(o.attributeName())) : all;
      },
    });
    cmd.configureOutput({
      getOutHelpWidth: () => width,
      writeOut: (s) => ctx.stdout.write(wrapText(s, width)),
      writeErr: (s) => ctx.stderr.write(s),
      // Our own renderer prints usage errors, so that every error looks the same.
      outputError: () => undefined,
    });
    for (const sub of cmd.commands) configure(sub);
  };
  configure(program);
  if (full) fillAll();
  if (runF) replaceRuns(program, runF);
  return program;
}

/** "did you mean" for a word among known names: the closest by edit distance, if close enough. */
function suggest(word: string, known: string[], topics: string[] = []): string {
  const best = [...known, ...topics].map((k) => ({ k, d: distance(word, k) })).sort((x, y) => x.d - y.d)[0];
  if (best && best.d <= Math.max(2, Math.floor(word.length / 3))) return `did you mean ${best.k}?`;
  return `commands: ${known.join(', ')}${topics.length > 0 ? `; help topics: ${topics.join(', ')}` : ''}`;
}

/**
 * Runs the command line; `runF`, when given, takes the place of the command's run once its options are
 * parsed (gh's runF): a test asserts what a command line parses to with no server and no process.
 */
/** Commands that draw a screen and write no data, and the global flags that shape data. */
const SCREEN_ONLY = new Set(['browse']);
const DATA_FLAGS = new Set(['output', 'fields', 'query', 'pager']);

/** The commands whose output can be long (a list, a record), paged at a terminal unless --no-pager. */
const PAGED = new Set(['list', 'show']);

async function pagerFor(ctx: Ctx, action: Command): Promise<Pager | undefined> {
  if (!PAGED.has(action.name()) || action.optsWithGlobals().pager === false) return undefined;
  const tty = terminalOut(ctx);
  if (!tty) return undefined;
  const { pagerCommand, startPager } = await import('./output/pager.js');
  const words = pagerCommand(ctx.env);
  return words ? startPager(tty, words) : undefined;
}

export async function run(argv: string[], overrides: Partial<Ctx> = {}, runF?: RunF): Promise<number> {
  // Every byte a command writes passes the one writer's escaping (output/terminal.ts), which needs to know
  // --no-color before the program is built.
  const ctx = guardedContext(defaultContext(overrides), !earlyGlobals(argv).color);
  const state: RunState = { exitCode: 0 };
  const program = createProgram(ctx, state, false, runF);
  let pager: (Pager & { release: () => void }) | undefined;
  const closePager = async () => {
    await pager?.close();
    pager?.release();
    pager = undefined;
  };
  program.hook('preAction', async (_root, action) => {
    const started = await pagerFor(ctx, action);
    if (!started) return;
    // Ctrl-C in the pager is the pager's, as git ignores it while its pager runs: leaving here would give the
    // shell the terminal while the pager still draws on it.
    const ignored = ctx.waitForSignal(['SIGINT']);
    const release = pageTo(ctx, started.stream);
    pager = {
      ...started,
      release: () => {
        ignored.cancel();
        release();
      },
    };
  });
  const stopWarnings = routeWarnings(ctx);
  let failed: number | undefined;
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    // The error is said on the terminal once the pager has given it back.
    await closePager();
    // --verbose as commander parsed it (`-vo json` too), not a scan of the words.
    failed = err instanceof RunReplaced ? EXIT.ok : renderError(err, ctx, program.opts().verbose === true);
  } finally {
    stopWarnings();
  }
  await closePager();
  await ctx.flush?.();
  // Read once the output is out: a second signal to serve may land while it drains, and makes the exit 130.
  return failed ?? state.exitCode;
}

/** The one place that turns an error into words on stderr and an exit code. */
function renderError(err: unknown, ctx: Ctx, verbose: boolean): number {
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
    // A message may quote the server: its control characters are shown, never obeyed.
    ctx.stderr.write(`error: ${visible(err.message, true)}\n`);
    for (const d of err.details) ctx.stderr.write(`  - ${visible(d, true)}\n`);
    if (err.hint) ctx.stderr.write(`hint: ${visible(err.hint, true)}\n`);
    if (verbose && err.cause) ctx.stderr.write(`cause: ${String((err.cause as Error).stack ?? err.cause)}\n`);
    return err.exitCode;
  }
  const refused = platformRefusal(err);
  if (refused) {
    ctx.stderr.write(`error: ${visible(refused, true)}\n`);
    if (verbose) ctx.stderr.write(`${(err as Error).stack}\n`);
    return EXIT.failure;
  }
  const e = err as Error;
  ctx.stderr.write(`error: unexpected: ${visible(e?.message ?? String(err), true)}\n`);
  if (verbose && e?.stack) ctx.stderr.write(`${e.stack}\n`);
  else ctx.stderr.write('hint: run again with --verbose for details, and report it if it persists\n');
  return EXIT.failure;
}

/** How the platform refuses a file, in words a person can act on (Node's own are errno names). */
const FILE_REFUSALS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
};

/** A file or host the platform refused (not a fault of ours, nothing to report): its sentence, else undefined. */
function platformRefusal(err: unknown): string | undefined {
  const e = err as (NodeJS.ErrnoException & { hostname?: string }) | undefined;
  if (e?.code === 'ENOTFOUND' && typeof e.hostname === 'string') return `no host named ${e.hostname} was found`;
  const reason = FILE_REFUSALS[e?.code ?? ''];
  return reason && typeof e?.path === 'string' ? `${e.path}: ${reason}` : undefined;
}
