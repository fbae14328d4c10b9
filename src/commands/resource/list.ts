import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { examples, optsOf, type ResourceSpec, withClient } from '../shared.js';

export function listCommand(ctx: Ctx, spec: ResourceSpec): Command {
  return new Command('list')
    .alias('ls')
    .description(`List ${spec.plural}`)
    .addHelpText(
      'after',
      examples(
        `clinadmin ${spec.group} list`,
        `clinadmin ${spec.group} list -o json --fields id,name`,
        `clinadmin ${spec.group} list -o csv > ${spec.plural}.csv`,
      ),
    )
    .action(async (_o: unknown, cmd: Command) => {
      const opts = optsOf(cmd);
      await withClient(ctx, opts, async ({ client, settings }) => {
        const data = await client.request<unknown[]>('GET', spec.path, undefined, { list: true });
        const { present } = await import('../../output/present.js');
        await present(ctx, data, {
          ...opts,
          account: settings.account,
          columns: await spec.columns(),
          empty: `no ${spec.plural}`,
        });
      });
    });
}
