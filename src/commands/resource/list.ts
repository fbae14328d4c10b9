import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import type { Resource } from '../../resources/index.js';
import { checkFields, examples, optsOf, viewsOf, withClient } from '../shared.js';

export function listCommand(ctx: Ctx, spec: Resource): Command {
  return new Command('list')
    .alias('ls')
    .description(`List ${spec.plural}`)
    .option('--no-headers', 'leave out the header row of -o table and -o wide (for scripts that read columns)')
    .addHelpText(
      'after',
      examples(
        `clinadmin ${spec.group} list`,
        `clinadmin ${spec.group} list -o wide`,
        `clinadmin ${spec.group} list -o json --fields id,name`,
        `clinadmin ${spec.group} list -o csv > ${spec.plural}.csv`,
      ) +
        '\nEvery format but -o yaml and --query streams a list of any length: each record is written as it\n' +
        'arrives (a table sizes its columns from the first rows).\n',
    )
    .action(async (_o: unknown, cmd: Command) => {
      const opts = await optsOf(cmd);
      checkFields(spec, opts.fields);
      await withClient(ctx, opts, async ({ client, settings }) => {
        const { chooseFormat, present, selectColumns } = await import('../../output/present.js');
        const format = chooseFormat(ctx, opts.output);
        const { columns, wide } = await viewsOf(spec);
        const empty = `no ${spec.plural}`;
        if (!opts.query && (format === 'json' || format === 'ndjson' || format === 'csv')) {
          const { recordSink } = await import('../../output/stream.js');
          const sink = recordSink(ctx, format, opts.fields, columns);
          await client.stream(spec.path, sink);
          sink.end();
          return;
        }
        if (!opts.query && (format === 'table' || format === 'wide')) {
          const { tableSink } = await import('../../output/stream.js');
          const shown = format === 'wide' && !opts.fields ? wide : selectColumns(columns, opts.fields, []);
          const sink = await tableSink(ctx, shown, {
            ...opts,
            account: settings.account,
            empty,
          });
          await client.stream(spec.path, sink);
          sink.end();
          return;
        }
        const data = await client.list(spec.path);
        await present(ctx, data, { ...opts, account: settings.account, columns, wide, empty });
      });
    });
}
