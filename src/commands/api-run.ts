import type { Command } from 'commander';
import type { Ctx } from '../context.js';
import { readJsonArg } from '../formats/input.js';
import { present } from '../output/present.js';
import { optsOf, withClient } from './shared.js';

/** `api METHOD PATH` (the method known and upper-case): one request as given, the answer as JSON. */
export async function runApi(ctx: Ctx, m: string, path: string, cmd: Command): Promise<void> {
  const opts = await optsOf(cmd);
  const body = typeof opts.data === 'string' ? await readJsonArg(ctx, opts.data) : undefined;
  await withClient(ctx, opts, async ({ client }) => {
    const data = await client.request(m, path.startsWith('/') ? path : `/${path}`, body);
    await present(ctx, data, { ...opts, output: opts.output ?? 'json' });
  });
}
