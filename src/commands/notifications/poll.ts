import type { ApiClient } from '../../api/client.js';
import type { NotificationLike } from '../../core/notifications.js';
import { leadingId } from '../../formats/json/array-stream.js';
import { notifications } from '../../resources/index.js';

export type Note = NotificationLike & Record<string, unknown>;

/**
 * The notifications the server lists that are not in `seen`, as they come (`watch` and `browse` poll with
 * it; the API documents no push). Only what is new is kept: the rest of a long list is let go as it is
 * read, so it dies young and costs the garbage collector little. A record seen before is known by the id
 * it opens with, and then not even parsed (when the server writes the id first, as serve does).
 */
export async function newNotifications(
  client: ApiClient,
  seen: ReadonlySet<string>,
  onRecord?: (count: number) => void,
): Promise<Note[]> {
  const fresh: Note[] = [];
  await client.stream(notifications.path, {
    record: (rec) => {
      if (!seen.has((rec as Note).id)) fresh.push(rec as Note);
      onRecord?.(fresh.length);
    },
    known: (bytes) => {
      const id = leadingId(bytes);
      return id !== undefined && seen.has(id);
    },
    batchEnd: () => true,
    drained: async () => undefined,
  });
  return fresh;
}
