import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import type { Resource } from '../../resources/index.js';
import { checkFields, enc, examples, optsOf, viewsOf, withClient } from '../shared.js';

export function showCommand(ctx: Ctx, spec: Resource): Command {
  return new Command('show')
    .alias('get')
    .description(`Show one ${spec.noun}`)
    .argument('<id>', `the ${spec.noun}'s id`)
    .addHelpText('after', examples(`clinadmin ${spec.group} show ID`, `clinadmin ${spec.group} show ID -o json`))
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const opts = await optsOf(cmd);
      checkFields(spec, opts.fields);
      await withClient(ctx, opts, async ({ client, settings }) => {
        const data = await client.request('GET', `${spec.path}/${enc(id)}`);
        const { present } = await import('../../output/present.js');
        await present(ctx, data, { ...opts, account: settings.account, ...(await viewsOf(spec)) });
      });
    });
}
