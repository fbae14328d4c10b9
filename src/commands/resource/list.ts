import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import type { Resource } from '../../resources/index.js';
import { columnsOf, examples, optsOf, withClient } from '../shared.js';

export function listCommand(ctx: Ctx, spec: Resource): Command {
  return new Command('list')
    .alias('ls')
    .description(`List ${spec.plural}`)
    .addHelpText(
      'after',
      examples(
        `clinadmin ${spec.group} list`,
        `clinadmin ${spec.group} list -o json --fields id,name`,
        `clinadmin ${spec.group} list -o csv > ${spec.plural}.csv`,
      ) +
        '\n-o json, ndjson and csv stream a list of any length record by record; a table, -o yaml and\n' +
        '--query hold the whole list in memory.\n',
    )
    .action(async (_o: unknown, cmd: Command) => {
      const opts = await optsOf(cmd);
      await withClient(ctx, opts, async ({ client, settings }) => {
        const { chooseFormat, present } = await import('../../output/present.js');
        const format = chooseFormat(ctx, opts.output);
        // JSON, NDJSON and CSV stream: each record is written before the next is read. A table, YAML and
        // --query need the whole list.
        if ((format === 'json' || format === 'ndjson' || format === 'csv') && !opts.query) {
          const { recordSink } = await import('../../output/stream.js');
          const sink = recordSink(ctx, format, opts.fields, await columnsOf(spec));
          await client.stream(spec.path, sink);
          sink.end();
          return;
        }
        const data = await client.list(spec.path);
        await present(ctx, data, {
          ...opts,
          account: settings.account,
          columns: await columnsOf(spec),
          empty: `no ${spec.plural}`,
        });
      });
    });
}
