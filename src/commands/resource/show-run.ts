import type { Ctx } from '../../context.js';
import type { Resource } from '../../resources/index.js';
import { checkFields, enc, type Opts, viewsOf, withClient } from '../shared.js';

/** show: one record fetched by its id and presented. */
export async function runShow(ctx: Ctx, spec: Resource, id: string, opts: Opts): Promise<void> {
  checkFields(spec, opts.fields);
  await withClient(ctx, opts, async ({ client, settings }) => {
    const data = await client.request('GET', `${spec.path}/${enc(id)}`);
    const { present } = await import('../../output/present.js');
    await present(ctx, data, { ...opts, account: settings.account, ...(await viewsOf(spec)) });
  });
}
