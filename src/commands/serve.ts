import { type Command, Option } from 'commander';
import type { Ctx, RunState } from '../context.js';
import { collect, handOver } from './shared.js';

export function serveCommand(cmd: Command, ctx: Ctx, state: RunState): Command {
  // commander sets a lone --no-* option's implied default before the preSubcommand hook that adds this
  // group's options, so the default is declared with the option and holds whenever the option is added.
  const noEvents = new Option('--no-events', 'do not record a notification for each change').default(
    true,
    'each change recorded',
  );
  return cmd
    .addOption(new Option('--port <port>', 'port to listen on; 0 picks a free one').default('4010'))
    .addOption(new Option('--host <host>', 'address to listen on').default('127.0.0.1'))
    .addOption(
      new Option('--data <file>', 'the JSON data file (created when missing)').default('./clinadmin-data.json'),
    )
    .addOption(
      new Option(
        '--token <token[:account[:admin]]>',
        'accepted API token, repeatable (env CLINADMIN_SERVE_TOKENS, comma-separated); account defaults to ' +
          'local-admin; :admin lets it use /_admin/ (clinadmin sandbox)',
      ).argParser(collect),
    )
    .addOption(
      new Option(
        '--token-file <file>',
        'read accepted tokens from a file, one TOKEN[:ACCOUNT[:admin]] a line (# comments); it must be owner-only',
      ),
    )
    .addOption(noEvents)
    .addOption(
      new Option(
        '--ready-file <path>',
        'once serve answers, write {"url", "pid"} to PATH (whole, by a rename); removed at the stop',
      ),
    )
    .addOption(new Option('--seed', 'fill an empty data file with demo data'))
    .addOption(
      new Option(
        '--load <file>',
        'start from the state in FILE (a data file, or what measures export or coverages list -o json write); ' +
          'it replaces what --data held (kept as snapshot before-load); without --data, a fresh temporary data file',
      ),
    )
    .addOption(new Option('--max-body <bytes>', 'largest accepted request body').default(String(1024 * 1024)))
    .addOption(
      new Option('--headers-timeout <ms>', 'cut off a client whose request headers take longer').default('10000'),
    )
    .addOption(
      new Option('--request-timeout <ms>', 'cut off a client whose whole request takes longer').default('30000'),
    )
    .addOption(
      new Option(
        '--stop-grace <seconds>',
        'on SIGINT or SIGTERM, let requests in flight finish for at most this long before closing them',
      ).default('10'),
    )
    .addOption(
      new Option('--journal-requests <n>', 'keep the last N requests for GET /_admin/requests; 0 keeps none').default(
        '10000',
      ),
    )
    .addOption(
      new Option(
        '--journal-bytes <bytes>',
        'bound the request journal in bytes (paths, queries, bodies), the oldest dropped first; 0 keeps none',
      ).default(String(32 * 1024 * 1024)),
    )
    .addOption(
      new Option(
        '--journal-header <name>',
        'keep this request header in the request journal too, repeatable (Idempotency-Key, X-Request-Id, ' +
          'Content-Type and User-Agent always; never Authorization or cookies)',
      ).argParser(collect),
    )
    .addOption(
      new Option(
        '--record-bodies',
        'keep request bodies in the request journal too: whole when JSON, accepted or refused; else the first ' +
          '256 characters',
      ),
    )
    .addOption(
      new Option(
        '--keep-notifications <n>',
        'keep at most N notifications, the oldest dropped as the journal folds; 0 keeps all',
      ).default('10000'),
    )
    .addOption(
      new Option('--latency <ms>', 'fault: delay every answer by MS, or a random MIN-MAX milliseconds (e.g. 5-50)'),
    )
    .addOption(
      new Option(
        '--fail-rate <p>',
        'fault: answer this share (0 to 1) of API requests 503 with Retry-After, changing nothing',
      ),
    )
    .addOption(new Option('--rate-limit <n>', 'fault: answer 429 with Retry-After past N API requests a second'))
    .addOption(
      new Option(
        '--fail-on <rule>',
        'fault: answer METHOD:PATH-PATTERN:STATUS with that status, repeatable (e.g. POST:/insurance-coverages:500)',
      ).argParser(collect),
    )
    .addHelpText(
      'after',
      `
Examples:
  $ clinadmin serve --seed
  $ clinadmin serve --port 0 --data /tmp/lab.json --token s3cret:acc_lab --token adm1n:acc_ci:admin
  $ clinadmin serve --token-file ~/.config/clinadmin/serve-tokens   # tokens stay out of ps
  $ CLINADMIN_SERVE_TOKENS=tokA:acc_a,tokB:acc_b clinadmin serve
  $ clinadmin serve --port 0 --fail-rate 0.2 --rate-limit 200 --latency 5-50   # rehearse a bad day
  $ clinadmin serve --port 0 --record-bodies --token ci:acc_ci:admin   # a CI double: clinadmin sandbox
  $ clinadmin serve --port 0 --load state.json   # measures, coverages, contracts, notifications in one step
  $ clinadmin serve --port 0 --ready-file ready.json &   # then wait until ready.json exists

--token puts the token in the process list (ps); prefer --token-file or CLINADMIN_SERVE_TOKENS. Without a \
token the server makes one (an admin's) and prints it with the command that points the CLI at it. /_admin/ \
(snapshots, reset, the request journal: clinadmin sandbox) needs a token marked :admin; any other token gets 403 \
there.

SIGINT and SIGTERM let requests in flight finish (at most --stop-grace, 10 s; then their connections are \
closed), save the data file and exit 0; a second signal before the exit stops at once (exit 130), every \
acknowledged write being in the journal already. A connection with no progress for --request-timeout (a client \
that stopped reading an answer) is closed.

GET /healthz and GET /openapi.json need no token. Faults are off by default. A request answered with an \
injected fault changed nothing; one answered 200 is on disk. --fail-rate and --rate-limit spare /healthz and \
/openapi.json, so a wait loop stays reliable; --fail-on may match any path \
(* matches any text, METHOD may be *). A test sets its own --fail-on rules and latency while serve runs with \
clinadmin sandbox faults set; a reset clears them.`,
    )
    .action(async (raw: Record<string, unknown>, cmd: Command) => {
      const { serve, serveOptions } = await import('./serve-run.js');
      const opts = serveOptions(raw);
      await handOver(cmd, opts);
      await serve(ctx, opts, raw, state, cmd.getOptionValueSource('data') !== 'default');
    });
}
