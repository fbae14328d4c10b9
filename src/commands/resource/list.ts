import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import type { Resource } from '../../resources/index.js';
import { examples, optsOf } from '../shared.js';

export function listCommand(ctx: Ctx, res: Resource): Command {
  const cmd = new Command('list').alias('ls').description(`List ${res.plural}`);
  for (const f of res.filters ?? []) cmd.option(`--${f} <value>`, `only ${res.plural} whose ${f} is this`);
  return cmd
    .option('--name-like <text>', 'only those whose name contains this text (any case)')
    .option('--limit <n>', 'at most this many (the first ones the server lists)')
    .option('--no-headers', 'leave out the header row of -o table and -o wide (for scripts that read columns)')
    .addHelpText(
      'after',
      examples(
        `clinadmin ${res.group} list`,
        `clinadmin ${res.group} list -o wide`,
        `clinadmin ${res.group} list --name-like ${res.nameExample} --limit 5`,
        `clinadmin ${res.group} list -o json --fields id,name`,
        `clinadmin ${res.group} list -o csv > ${res.plural}.csv`,
      ) +
        '\nEvery format but -o yaml and --query streams a list of any length: each record is written as it\n' +
        'arrives (a table sizes its columns from the first rows).\n',
    )
    .action(async (_o: unknown, cmd: Command) => {
      const opts = await optsOf(cmd, ({ z, wholeNumber }) => ({
        nameLike: z.optional(z.string()),
        limit: z.optional(wholeNumber(1)),
      }));
      const { runList } = await import('./list-run.js');
      await runList(ctx, res, opts);
    });
}
