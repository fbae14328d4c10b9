// Long ids (a service's UUIDs) shown as the shortest prefix unique among what was fetched, as git shows
// hashes; the commands that take an id accept such a prefix (commands/resource/find.ts).

/** Ids up to this long are shown whole: they are words a person reads (`ntf_stock_low`). */
const LONG_ID = 20;
/** A prefix keeps at least this many characters past the id's `word_` prefix (git shows 7 of a hash). */
const PREFIX_MIN = 8;

/** Where a prefix may end at the earliest: 8 characters past `ntf_`, so `ntf_3f2b9c1e`. */
function prefixFloor(id: string): number {
  const word = /^[A-Za-z]{1,12}_/.exec(id);
  return (word ? word[0].length : 0) + PREFIX_MIN;
}

/** Printable ASCII but the backslash: text that needed no escape, so a prefix never ends inside one. */
const PLAIN = /^[\x21-\x5b\x5d-\x7e]+$/;
/** An id a prefix may stand for. */
const abbreviable = (id: string) => id.length > LONG_ID && PLAIN.test(id);

const common = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

/**
 * Each long id's shortest prefix that no other id starts with, one length for all (as `git log
 * --oneline` aligns its hashes): sorted, an id shares the most with its neighbours.
 */
export class ShortIds {
  private readonly length: number;
  /** Each prefix given out, and the id it stands for: a later id that shares one is shown whole. */
  private readonly given = new Map<string, string>();

  constructor(known: Iterable<string>) {
    const ids = [...new Set(known)].sort();
    let length = 0;
    for (let i = 0; i < ids.length; i++) {
      if (!abbreviable(ids[i])) continue;
      const shared = Math.max(i > 0 ? common(ids[i - 1], ids[i]) : 0, common(ids[i], ids[i + 1] ?? ''));
      length = Math.max(length, prefixFloor(ids[i]), shared + 1);
    }
    this.length = length;
  }

  /** The id as a view shows it: whole, or its unique prefix. */
  of(id: string): string {
    if (!abbreviable(id)) return id;
    const prefix = id.slice(0, Math.max(this.length, prefixFloor(id)));
    if (prefix.length >= id.length) return id;
    const owner = this.given.get(prefix);
    // One not among those the length was chosen from, sharing a prefix given out: whole, never ambiguous.
    if (owner !== undefined && owner !== id) return id;
    this.given.set(prefix, id);
    return prefix;
  }
}

/** Whether `word` could be a prefix a view showed for a longer id (too short ones name no record). */
export const couldBePrefix = (word: string) => word.length >= prefixFloor(word) && PLAIN.test(word);
