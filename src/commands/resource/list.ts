import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import type { Resource } from '../../resources/index.js';
import { examples, optsOf } from '../shared.js';

export function listCommand(ctx: Ctx, spec: Resource): Command {
  const cmd = new Command('list').alias('ls').description(`List ${spec.plural}`);
  for (const f of spec.filters ?? []) cmd.option(`--${f} <value>`, `only ${spec.plural} whose ${f} is this`);
  return cmd
    .option('--name-like <text>', 'only those whose name contains this text (any case)')
    .option('--limit <n>', 'at most this many (the first ones the server lists)')
    .option('--no-headers', 'leave out the header row of -o table and -o wide (for scripts that read columns)')
    .addHelpText(
      'after',
      examples(
        `clinadmin ${spec.group} list`,
        `clinadmin ${spec.group} list -o wide`,
        `clinadmin ${spec.group} list --name-like ${spec.nameExample} --limit 5`,
        `clinadmin ${spec.group} list -o json --fields id,name`,
        `clinadmin ${spec.group} list -o csv > ${spec.plural}.csv`,
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
      await runList(ctx, spec, opts);
    });
}
