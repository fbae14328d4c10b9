import type { ApiClient } from '../../api/client.js';
import { ApiError, DeadlineError } from '../../errors.js';
import { Existing } from './existing.js';
import type { SyncSpec } from './prepare.js';
import { type Checked, checkedRecords } from './run.js';

// What the server holds, as an import plans against it: its list read once as digests while the input is
// checked, then whole only the records an input record differs from.

/**
 * Connects and reads the server's list, each record as a digest of its fields, let go as it is read
 * (existing.ts). The answer is asked for at once (connecting while the heap is small) but read past its
 * first piece only once `checkedOk` resolves: reading both at once holds both in memory at the same time.
 */
export async function fetchExisting(
  connect: () => Promise<ApiClient>,
  spec: SyncSpec,
  checkedOk: Promise<boolean>,
  warning: (text: string) => void,
): Promise<{ client: ApiClient; found: Existing }> {
  const client = await connect();
  const read = async (gate: Promise<boolean> | undefined) => {
    const found = new Existing(spec);
    let open = gate === undefined;
    await client.stream(spec.path, {
      record: (r) => found.add(r as Record<string, unknown>),
      batchEnd: () => open,
      drained: async () => {
        await gate;
        open = true;
      },
    });
    return found;
  };
  try {
    try {
      return { client, found: await read(checkedOk) };
    } catch (err) {
      // An answer cut off (a proxy may drop one that waited) is asked for once more, now read at once: its
      // records went only into `found`, which starts again, so nothing is counted twice.
      if (!(err instanceof ApiError) || err instanceof DeadlineError || err.status !== undefined) throw err;
      if (!(await checkedOk)) throw err;
      // Said before the second answer is read, so a second failure is read beside the first one's reason.
      warning(`the first answer to GET ${spec.path} failed (${err.message}); asking once more`);
      return { client, found: await read(undefined) };
    }
  } catch (err) {
    await client.close();
    throw err;
  }
}

/**
 * Fetches whole the server's records that an input record differs from (one more streamed list, keeping
 * only those), so the plan can show and send what changed; an unchanged re-import fetches nothing more.
 */
export async function wholeWhereChanged(client: ApiClient, spec: SyncSpec, checked: Checked, found: Existing) {
  const wanted = new Set<string>();
  for await (const batch of checkedRecords(checked.spool)) {
    for (const rec of batch) {
      const stored = found.match(rec.id, rec.key);
      if (stored && !found.whole.has(stored.id) && !found.sameAs(stored, rec)) wanted.add(stored.id);
    }
  }
  if (wanted.size === 0) return;
  await client.stream(spec.path, {
    record: (r) => {
      const id = (r as { id?: unknown }).id;
      if (typeof id === 'string' && wanted.has(id)) found.whole.set(id, r as Record<string, unknown>);
    },
    batchEnd: () => true,
    drained: async () => undefined,
  });
}
