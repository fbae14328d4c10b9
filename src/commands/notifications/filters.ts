import type { NotificationFilter, NotificationLike } from '../../core/notifications.js';
import { UsageError } from '../../errors.js';
import { visible } from '../../output/text.js';
import type { Opts } from '../shared.js';
import { distance } from '../suggest.js';

/** The filter flags list, watch and browse share: values to match exactly, and accounts. */
export interface FilterFlags {
  type?: string;
  code?: string;
  unseen?: boolean;
  seenBy?: string;
  unseenBy?: string;
}

/** The filter the flags ask for; `--unseen` is `--unseen-by` the current account, so it needs one. */
export function filterOf(opts: FilterFlags & Opts, account: string | undefined): NotificationFilter {
  if (opts.unseen && opts.unseenBy !== undefined)
    throw new UsageError('--unseen and --unseen-by name the same filter', '--unseen is --unseen-by your own account');
  if (opts.unseen && !account) {
    throw new UsageError(
      '--unseen needs to know your account',
      'set it with `clinadmin config set account ID` (or `clinadmin login --account ID`), or ' +
        'CLINADMIN_ACCOUNT; or name one with --unseen-by ACCOUNT',
    );
  }
  return {
    type: opts.type,
    code: opts.code,
    seenBy: opts.seenBy,
    unseenBy: opts.unseen ? account : opts.unseenBy,
  };
}

const SHOWN = 5;

/**
 * When a filter matched nothing: each value asked for (a type, a code, an account of --seen-by) that no
 * fetched notification has, said with the nearest ones there are, as one line each. A typo then reads as
 * a typo, not as "none were sent"; the matching itself stays exact.
 */
export function notHere(all: readonly NotificationLike[], f: NotificationFilter): string[] {
  const lines: string[] = [];
  const check = (asked: string | undefined, what: string, many: string, values: (n: NotificationLike) => unknown[]) => {
    if (asked === undefined) return;
    const here = new Set<string>();
    for (const n of all) for (const v of values(n)) if (typeof v === 'string') here.add(v);
    if (here.has(asked)) return;
    const a = asked.toLowerCase();
    const near = [...here].sort(
      (x, y) => distance(a, x.toLowerCase()) - distance(a, y.toLowerCase()) || (x < y ? -1 : 1),
    );
    const shown = near.slice(0, SHOWN).map((v) => visible(v, true));
    const rest = near.length > SHOWN ? ', …' : '';
    const there = near.length > 0 ? shown.join(', ') + rest : 'none';
    lines.push(`no notifications ${what} "${visible(asked, true)}"; ${many}: ${there}`);
  };
  check(f.type, 'of type', 'types here', (n) => [n.type]);
  check(f.code, 'with code', 'codes here', (n) => [n.code]);
  check(f.seenBy, 'seen by', 'accounts that have seen one', (n) => (Array.isArray(n.seenBy) ? n.seenBy : []));
  return lines;
}
