import type { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { chooseFormat, present } from '../../output/present.js';
import { writeOut } from '../../output/text-out.js';
import { notifications } from '../../resources/index.js';
import { checkFields, enc, optsOf, viewsOf, withClient } from '../shared.js';
import { readable } from './readable.js';

/** `notifications show`: one notification laid out for reading, or as data. */
export async function runShow(ctx: Ctx, id: string, cmd: Command): Promise<void> {
  const opts = await optsOf(cmd);
  checkFields(notifications, opts.fields);
  await withClient(ctx, opts, async ({ client, settings }) => {
    const data = await client.request<Record<string, unknown>>('GET', `${notifications.path}/${enc(id)}`);
    if (chooseFormat(ctx, opts.output) !== 'table' || opts.fields || opts.query) {
      await present(ctx, data, { ...opts, account: settings.account, ...(await viewsOf(notifications)) });
      return;
    }
    await writeOut(ctx, await readable(ctx, data, opts.color));
  });
}
