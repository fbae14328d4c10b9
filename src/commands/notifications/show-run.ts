import type { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import type { Ctx } from '../../context.js';
import { couldBePrefix } from '../../core/short-ids.js';
import { NotFoundError } from '../../errors.js';
import { chooseFormat, present } from '../../output/present.js';
import { visible } from '../../output/text.js';
import { writeOut } from '../../output/text-out.js';
import { notifications } from '../../resources/index.js';
import { ambiguousPrefix, byIdOrName } from '../resource/find.js';
import { checkFields, enc, optsOf, viewsOf, withClient } from '../shared.js';
import { readable } from './readable.js';

/** `notifications show`: one notification laid out for reading, or as data. */
export async function runShow(ctx: Ctx, id: string, cmd: Command): Promise<void> {
  const opts = await optsOf(cmd, ({ z }) => ({ peek: z.optional(z.boolean()) }));
  checkFields(notifications, opts.fields);
  await withClient(ctx, opts, async ({ client, settings }) => {
    const data = opts.peek
      ? await peek(client, id)
      : await byIdOrName(client, notifications, id, (at) =>
          client.request<Record<string, unknown>>('GET', `${notifications.path}/${enc(at)}`),
        );
    if (chooseFormat(ctx, opts.output) !== 'table' || opts.fields || opts.query) {
      await present(ctx, data, { ...opts, account: settings.account, ...(await viewsOf(notifications)) });
      return;
    }
    await writeOut(ctx, await readable(ctx, data, opts.color));
  });
}

/**
 * One notification read from the list, which marks nothing seen (on serve; see marks.ts): the pages are
 * read until the one that holds it, and no further; a prefix of a long id reads them all, to be sure it
 * begins one id alone.
 */
async function peek(client: ApiClient, id: string): Promise<Record<string, unknown>> {
  let found: Record<string, unknown> | undefined;
  const prefix = couldBePrefix(id);
  const begun: Record<string, unknown>[] = [];
  let begunCount = 0;
  await client.stream(notifications.path, {
    record: (rec) => {
      const at = (rec as { id?: unknown }).id;
      if (found === undefined && at === id) found = rec as Record<string, unknown>;
      else if (prefix && typeof at === 'string' && at.startsWith(id) && begunCount++ < 20)
        begun.push(rec as Record<string, unknown>);
    },
    batchEnd: () => true,
    drained: async () => undefined,
    done: () => found !== undefined,
  });
  if (found) return found;
  if (begunCount === 1) return begun[0];
  if (begunCount > 1) throw ambiguousPrefix(notifications, id, begun, begunCount);
  throw new NotFoundError(
    `no notification ${visible(id, true)} in the list`,
    'clinadmin notifications list shows the ids there are',
  );
}
