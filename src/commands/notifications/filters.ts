import { type NotificationFilter, type NotificationLike, parseWhen, WHEN_FORMS } from '../../core/notifications.js';
import { UsageError } from '../../errors.js';
import { localTime } from '../../output/columns.js';
import { visible } from '../../output/text.js';
import type { converted as convertedRule } from '../options.js';
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

/** The rule of `--since` or `--until`: any of WHEN_FORMS, as an instant in milliseconds. */
export const whenRule = (converted: typeof convertedRule, edge: 'since' | 'until') =>
  converted(`is not ${WHEN_FORMS}`, (s) => parseWhen(s, edge));

/** `--since` and `--until` as a window; ends given the wrong way round hold nothing, and are refused. */
export function windowOf(opts: { since?: number; until?: number }): Pick<NotificationFilter, 'since' | 'until'> {
  if (opts.since !== undefined && opts.until !== undefined && opts.since >= opts.until)
    throw new UsageError(
      `--since (${localTime(opts.since)}) is not before --until (${localTime(opts.until)}): ` +
        'no notification is in between',
      'the earlier time goes to --since: --since 3d --until 2d is from three days ago to two',
    );
  return { since: opts.since, until: opts.until };
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
    // Each distance worked out once, not again in each comparison of the sort.
    const near = [...here]
      .map((v) => ({ v, d: distance(a, v.toLowerCase()) }))
      .sort((x, y) => x.d - y.d || (x.v < y.v ? -1 : 1))
      .map((x) => x.v);
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
