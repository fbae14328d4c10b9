import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import type { Ctx } from '../../context.js';
import { NotFoundError } from '../../errors.js';
import { chooseFormat, present } from '../../output/present.js';
import { visible } from '../../output/text.js';
import { writeOut } from '../../output/text-out.js';
import { notifications } from '../../resources/index.js';
import { checkFields, enc, optsOf, viewsOf, withClient } from '../shared.js';
import { readable } from './readable.js';

/** `notifications show`: one notification laid out for reading, or as data. */
export async function runShow(ctx: Ctx, id: string, cmd: Command): Promise<void> {
  const opts = await optsOf(cmd, ({ z }) => ({ peek: z.optional(z.boolean()) }));
  checkFields(notifications, opts.fields);
  await withClient(ctx, opts, async ({ client, settings }) => {
    const data = opts.peek
      ? await peek(client, id)
      : await client.request<Record<string, unknown>>('GET', `${notifications.path}/${enc(id)}`);
    if (chooseFormat(ctx, opts.output) !== 'table' || opts.fields || opts.query) {
      await present(ctx, data, { ...opts, account: settings.account, ...(await viewsOf(notifications)) });
      return;
    }
    await writeOut(ctx, await readable(ctx, data, opts.color));
  });
}

/**
 * One notification read from the list, which marks nothing seen (on serve; see marks.ts): the pages are
 * read until the one that holds it, and no further.
 */
async function peek(client: ApiClient, id: string): Promise<Record<string, unknown>> {
  let found: Record<string, unknown> | undefined;
  await client.stream(notifications.path, {
    record: (rec) => {
      if (found === undefined && (rec as { id?: unknown }).id === id) found = rec as Record<string, unknown>;
    },
    batchEnd: () => true,
    drained: async () => undefined,
    done: () => found !== undefined,
  });
  if (!found) {
    throw new NotFoundError(
      `no notification ${visible(id, true)} in the list`,
      'clinadmin notifications list shows the ids there are',
    );
  }
  return found;
}
