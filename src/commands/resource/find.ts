import type { ApiClient } from '../../api/client.js';
import { distance, nearest } from '../../core/nearest.js';
import { couldBePrefix } from '../../core/short-ids.js';
import { NotFoundError, UsageError } from '../../errors.js';
import type { ListSink } from '../../formats/json/array-stream.js';
import type { Rec } from '../../formats/json/record.js';
import type { Resource } from '../../resources/index.js';

/** At most this many of the records a name matches are listed; the count says how many more. */
const LISTED = 20;

/**
 * A record named where its id goes, as gh takes a name or a number: the word is tried as an id first (the
 * request the command makes anyway, so an id costs nothing more); only on a 404 the list is read once, for
 * a resource whose records have names for the exact name, then (`anyCase`, for show and evaluate) the name
 * in another case, and then for the one id the word begins (the prefix a view shows of a long id, as git
 * takes a hash's). Names are unique only within a test, so several matches are listed (id, test, name) and
 * nothing is done (exit 2), as are several ids a prefix begins; none is the server's 404, with the nearest
 * name or id as a guess.
 */
export async function byIdOrName<T>(
  client: ApiClient,
  res: Resource,
  word: string,
  op: (id: string) => Promise<T>,
  anyCase = false,
): Promise<T> {
  try {
    return await op(word);
  } catch (err) {
    if (!(err instanceof NotFoundError) || (!res.key?.includes('name') && !couldBePrefix(word))) throw err;
    return op(await idOfName(client, res, word, anyCase, err));
  }
}

/** Several ids begin with the prefix given: listed (id and what names it), and nothing is done. */
export function ambiguousPrefix(res: Resource, word: string, found: Rec[], count = found.length): UsageError {
  const rows = found.slice(0, LISTED).map((r) => {
    const what = r.name ?? r.title;
    return `${String(r.id)}${typeof what === 'string' ? `  ${what}` : ''}`;
  });
  if (count > LISTED) rows.push(`… and ${count - LISTED} more`);
  return new UsageError(
    `${count} ${res.plural} have ids that begin ${JSON.stringify(word.slice(0, 80))}; nothing was done`,
    'give more of the id, or all of it',
    rows,
  );
}

async function idOfName(
  client: ApiClient,
  res: Resource,
  word: string,
  anyCase: boolean,
  missing: NotFoundError,
): Promise<string> {
  const scope = res.key?.find((k) => k !== 'name');
  const named = res.key?.includes('name') === true;
  const prefix = couldBePrefix(word);
  const lower = word.toLowerCase();
  const exact: Rec[] = [];
  const other: Rec[] = [];
  // Those the word begins the id of: the first few kept to list, all counted.
  const begun: Rec[] = [];
  let begunCount = 0;
  // The nearest name or id so far, found as records stream past: the list is never held whole.
  let guess: { text: string; d: number } | undefined;
  const sink: ListSink = {
    record(rec) {
      const r = rec as Rec;
      const name = named && typeof r.name === 'string' ? r.name : undefined;
      if (prefix && typeof r.id === 'string' && r.id.startsWith(word) && begunCount++ < LISTED) begun.push(r);
      if (name === word) exact.push(r);
      else if (anyCase && name?.toLowerCase() === lower) other.push(r);
      for (const text of [name, typeof r.id === 'string' ? r.id : undefined]) {
        if (text === undefined || text.length > 200) continue;
        if (nearest(word, [text]) === undefined) continue;
        // A name it begins first (nearest's own order), then the fewest edits, then the shortest.
        const d = text.toLowerCase().startsWith(lower) ? 0 : distance(lower, text.toLowerCase());
        if (guess === undefined || d < guess.d || (d === guess.d && text.length < guess.text.length))
          guess = { text, d };
      }
    },
    batchEnd: () => true,
    drained: async () => undefined,
  };
  await client.stream(res.path, sink);
  const found = exact.length > 0 ? exact : other;
  if (found.length === 0 && begunCount === 1) return String(begun[0].id);
  if (found.length === 0 && begunCount > 1) throw ambiguousPrefix(res, word, begun, begunCount);
  if (found.length === 1) return String(found[0].id);
  const quoted = JSON.stringify(word.slice(0, 80));
  if (found.length > 1) {
    const rows = found
      .slice(0, LISTED)
      .map((r) => `${String(r.id)}  ${scope ? `${scope} ${String(r[scope] ?? '')}  ` : ''}${String(r.name)}`);
    if (found.length > LISTED) rows.push(`… and ${found.length - LISTED} more`);
    throw new UsageError(
      `${found.length} ${res.plural} are named ${quoted}; nothing was done`,
      `give the id of the one you mean`,
      rows,
    );
  }
  // No name either: the server's own words for the id, with the nearest name or id as a guess.
  throw new NotFoundError(missing.message, guess ? `did you mean ${JSON.stringify(guess.text)}?` : missing.hint);
}
