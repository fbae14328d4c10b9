import { type Command, Option } from 'commander';
import { INPUT_FORMATS } from '../../formats/catalog-formats.js';

/** Requests in flight at once for import and apply: written once, for both commands' flags and help. */
const DEFAULT_CONCURRENCY = 48;
/** The most requests in flight at once: the help and the rule read this one number. */
const MAX_CONCURRENCY = 64;

/** The flags import and apply share, so both spell them, their help and their default the same way. */
export function addSyncOptions(cmd: Command, dryRunHelp: string, scope: string): Command {
  return cmd
    .option('--dry-run', dryRunHelp)
    .option(
      '--prune',
      `also delete the records of each ${scope} named in the input that the input does not list ` +
        `(other ${scope}s are never touched)`,
    )
    .option('-y, --yes', 'with --prune, delete without asking (needed without a terminal)')
    .addOption(
      new Option('--concurrency <n>', `requests in flight at once, 1 to ${MAX_CONCURRENCY}`).default(
        String(DEFAULT_CONCURRENCY),
      ),
    )
    .option('--report <path>', 'also write the outcome of every record as JSON to this file')
    .option('--show-unchanged', 'with --dry-run, list the unchanged records too (by default, only counted)')
    .option('--exit-code', 'with --dry-run, exit 1 when there are changes (drift detection in CI)');
}

/** The rules of those flags, parsed once at the top of import and apply (with the global options). */
export const syncShape = ({ z, wholeNumber }: import('../options.js').OptionRules) => ({
  concurrency: wholeNumber(1, MAX_CONCURRENCY),
  dryRun: z.optional(z.boolean()),
  strict: z.optional(z.boolean()),
  exitCode: z.optional(z.boolean()),
  report: z.optional(z.string().check(z.minLength(1, 'needs a file path'))),
  showUnchanged: z.optional(z.boolean()),
  prune: z.optional(z.boolean()),
  yes: z.optional(z.boolean()),
  format: z.optional(z.enum(INPUT_FORMATS)),
  column: z.optional(z.array(z.string())),
});

export type SyncOptions = import('../shared.js').Opts & import('../options.js').OutputOf<ReturnType<typeof syncShape>>;
