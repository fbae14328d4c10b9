import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { writeOut } from '../../output/text-out.js';
import { notifications } from '../../resources/index.js';
import { checkFields, enc, examples, optsOf, viewsOf, withClient } from '../shared.js';

export function showCommand(ctx: Ctx): Command {
  return new Command('show')
    .alias('get')
    .description('Show one notification laid out for reading (reading it marks it seen by your account)')
    .argument('<id>', "the notification's id")
    .addHelpText(
      'after',
      examples('clinadmin notifications show ntf_queue_1', 'clinadmin notifications show ntf_queue_1 -o json'),
    )
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const opts = await optsOf(cmd);
      checkFields(notifications, opts.fields);
      await withClient(ctx, opts, async ({ client, settings }) => {
        const data = await client.request<Record<string, unknown>>('GET', `${notifications.path}/${enc(id)}`);
        const { chooseFormat, present } = await import('../../output/present.js');
        if (chooseFormat(ctx, opts.output) !== 'table' || opts.fields || opts.query) {
          await present(ctx, data, { ...opts, account: settings.account, ...(await viewsOf(notifications)) });
          return;
        }
        const { readable } = await import('./readable.js');
        await writeOut(ctx, await readable(ctx, data, opts.color));
      });
    });
}
