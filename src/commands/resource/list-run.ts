import type { Ctx } from '../../context.js';
import type { ListSink } from '../../formats/json/array-stream.js';
import type { Rec } from '../../formats/json/record.js';
import type { Resource } from '../../resources/index.js';
import { checkFields, type Opts, viewsOf, withClient } from '../shared.js';

/** A sink that passes on only the records that match, and no more than `limit` of them. */
function filtered(sink: ListSink, keep: (r: Rec) => boolean, limit?: number): ListSink {
  let kept = 0;
  return {
    ...sink,
    // Every record must be seen to be filtered: none goes past unparsed.
    raw: undefined,
    record(rec) {
      if ((limit === undefined || kept < limit) && keep(rec as Rec)) {
        kept++;
        sink.record(rec);
      }
    },
    // With as many as --limit asks for, no next page is fetched (as gh's --limit stops paging).
    done: () => (limit !== undefined && kept >= limit) || sink.done?.() === true,
  };
}

/** list: the records streamed from the server to the output as they arrive, filtered here. */
export async function runList(
  ctx: Ctx,
  res: Resource,
  opts: Opts & { nameLike?: string; limit?: number },
): Promise<void> {
  checkFields(res, opts.fields);
  await withClient(ctx, opts, async ({ client, settings }) => {
    const { listOutput } = await import('../../output/stream.js');
    const out = await listOutput(ctx, {
      ...opts,
      account: settings.account,
      ...(await viewsOf(res)),
      empty: `no ${res.plural}`,
    });
    // The API has no filters, so they run here, as each record arrives.
    const wanted = (res.filters ?? []).filter((f) => typeof opts[f] === 'string');
    const like = opts.nameLike?.toLowerCase();
    const keep = (r: Rec) =>
      wanted.every((f) => String(r[f] ?? '') === opts[f]) &&
      (like === undefined ||
        String(r.name ?? '')
          .toLowerCase()
          .includes(like));
    const filters = wanted.length > 0 || like !== undefined || opts.limit !== undefined;
    await client.stream(
      res.path,
      filters ? filtered(out, keep, opts.limit) : out,
      out.holds ? client.heldLimit : undefined,
    );
    await out.end();
  });
}
