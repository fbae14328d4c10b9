import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import type { ListSink } from '../../json/array-stream.js';
import type { Resource } from '../../resources/index.js';
import { checkFields, examples, optsOf, viewsOf, withClient } from '../shared.js';

/** A sink that passes on only the records that match, and no more than `limit` of them. */
function filtered(sink: ListSink, keep: (r: Record<string, unknown>) => boolean, limit?: number): ListSink {
  let kept = 0;
  return {
    ...sink,
    // Every record must be seen to be filtered: none goes past unparsed.
    raw: undefined,
    record(rec) {
      if ((limit === undefined || kept < limit) && keep(rec as Record<string, unknown>)) {
        kept++;
        sink.record(rec);
      }
    },
  };
}

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
      checkFields(spec, opts.fields);
      await withClient(ctx, opts, async ({ client, settings }) => {
        const { listOutput } = await import('../../output/stream.js');
        const out = await listOutput(ctx, {
          ...opts,
          account: settings.account,
          ...(await viewsOf(spec)),
          empty: `no ${spec.plural}`,
        });
        // The API has no filters, so they run here, as each record arrives.
        const wanted = (spec.filters ?? []).filter((f) => typeof opts[f] === 'string');
        const like = opts.nameLike?.toLowerCase();
        const keep = (r: Record<string, unknown>) =>
          wanted.every((f) => String(r[f] ?? '') === opts[f]) &&
          (like === undefined ||
            String(r.name ?? '')
              .toLowerCase()
              .includes(like));
        const filters = wanted.length > 0 || like !== undefined || opts.limit !== undefined;
        await client.stream(
          spec.path,
          filters ? filtered(out, keep, opts.limit) : out,
          out.holds ? client.heldLimit : undefined,
        );
        await out.end();
      });
    });
}
