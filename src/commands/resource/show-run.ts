import type { Ctx } from '../../context.js';
import type { Resource } from '../../resources/index.js';
import { checkFields, enc, type Opts, viewsOf, withClient } from '../shared.js';
import { byIdOrName } from './find.js';

/** show: one record fetched by its id (or its name) and presented. */
export async function runShow(ctx: Ctx, res: Resource, id: string, opts: Opts): Promise<void> {
  checkFields(res, opts.fields);
  await withClient(ctx, opts, async ({ client, settings }) => {
    // The id, else the name, in any case (find.ts).
    const data = await byIdOrName(client, res, id, (at) => client.request('GET', `${res.path}/${enc(at)}`), true);
    const { present } = await import('../../output/present.js');
    await present(ctx, data, { ...opts, account: settings.account, ...(await viewsOf(res)) });
  });
}
