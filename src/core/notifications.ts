import { epochMs, newestFirst } from '../resources/time.js';

export interface NotificationLike {
  id: string;
  createdAt?: number;
  type?: string;
  code?: string;
  title?: string;
  seenBy?: string[];
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
// ISO 8601's extended form (RFC 3339 with the offset optional): without one it is local time, as
// ECMAScript's Date.parse reads it; the date-only form is read as a local day below, not as UTC.
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** What `--since` and `--until` take, said in their errors and help. */
export const WHEN_FORMS =
  'a duration (90s, 15m, 1h, 2d), a time of day (08:00), today, yesterday, a weekday (monday), or an ISO ' +
  'date or time (2026-11-20, 2026-11-20T08:00)';

/**
 * Local midnight of day `d` of month `m` (0-based) of year `y`: setFullYear, as `new Date(50, 0, 1)` reads
 * a year below 100 as 1950 where ISO 8601 means the year 50.
 */
const localDay = (y: number, m: number, d: number) => {
  const at = new Date(0);
  at.setFullYear(y, m, d);
  at.setHours(0, 0, 0, 0);
  return at;
};

/** Local midnight of the day `days` after the one holding `now`. */
const midnight = (now: number, days = 0) => {
  const d = new Date(now);
  return localDay(d.getFullYear(), d.getMonth(), d.getDate() + days).getTime();
};

/** A weekday's name or its first three letters (`mon`): its number, Sunday 0, as Date.getDay counts. */
const weekday = (v: string) => WEEKDAYS.findIndex((w) => v.length >= 3 && w.startsWith(v));

/**
 * The instant `--since` or `--until` names, in milliseconds; undefined when it is none of WHEN_FORMS. A
 * duration counts back from now; a time of day (08:00) is today's. A day (today, yesterday, monday,
 * 2026-11-20; in the local zone) is its start for `since` and its end for `until`, so `--since yesterday
 * --until yesterday` is all of yesterday. A calendar date that does not exist (2026-02-30) is refused,
 * not rolled over.
 */
export function parseWhen(value: string, edge: 'since' | 'until', now = Date.now()): number | undefined {
  const v = value.trim().toLowerCase();
  const duration = /^(\d+(?:\.\d+)?)([smhdw])$/.exec(v);
  if (duration) return now - Number(duration[1]) * UNITS[duration[2]];
  const end = edge === 'until' ? 1 : 0;
  if (v === 'today') return midnight(now, end);
  if (v === 'yesterday') return midnight(now, end - 1);
  // The last such day before today, as git's approxidate reads a weekday: on a Monday, `monday` is a week ago.
  const wd = weekday(v);
  if (wd >= 0) return midnight(now, end - (((new Date(now).getDay() - wd + 6) % 7) + 1));
  // A time of day is today's, in the local zone; the same for either edge.
  const clock = CLOCK.exec(v);
  if (clock) {
    const [h, mi, sec = 0] = clock.slice(1).map((x) => Number(x ?? 0));
    if (h > 23 || mi > 59 || sec > 59) return undefined;
    const at = new Date(midnight(now));
    at.setHours(h, mi, sec, 0);
    return at.getTime();
  }
  const day = DAY.exec(v);
  if (day) {
    const [y, m, d] = day.slice(1).map(Number);
    const start = localDay(y, m - 1, d);
    if (start.getFullYear() !== y || start.getMonth() !== m - 1 || start.getDate() !== d) return undefined;
    return midnight(start.getTime(), end);
  }
  const at = INSTANT.exec(v);
  if (!at) return undefined;
  const [y, mo, d, h, mi, sec = '0'] = at.slice(1);
  // Fields out of range (month 13, 25:00) roll over in Date: refused instead (checked in UTC, which has no
  // daylight-saving gaps).
  const check = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +sec));
  if (check.getUTCMonth() !== +mo - 1 || check.getUTCDate() !== +d || check.getUTCHours() !== +h) return undefined;
  if (+mi > 59 || +sec > 59) return undefined;
  const t = Date.parse(v.toUpperCase().replace(' ', 'T'));
  return Number.isNaN(t) ? undefined : t;
}

export interface NotificationFilter {
  type?: string;
  code?: string;
  since?: number;
  /** Before this instant (exclusive). */
  until?: number;
  /** Only what this account has seen. */
  seenBy?: string;
  /** Leave out what this account has seen. */
  unseenBy?: string;
  limit?: number;
}

const seen = (n: NotificationLike, account: string) => Array.isArray(n.seenBy) && n.seenBy.includes(account);

/** The API documents no filters, so they run here: newest first. */
export function filterNotifications<T extends NotificationLike>(list: T[], f: NotificationFilter): T[] {
  const out = list
    .filter((n) => (f.type === undefined || n.type === f.type) && (f.code === undefined || n.code === f.code))
    .filter((n) => f.since === undefined || (epochMs(n.createdAt) ?? 0) >= f.since)
    .filter((n) => f.until === undefined || (epochMs(n.createdAt) ?? 0) < f.until)
    .filter((n) => f.seenBy === undefined || seen(n, f.seenBy))
    .filter((n) => f.unseenBy === undefined || !seen(n, f.unseenBy))
    .sort(newestFirst);
  return f.limit === undefined ? out : out.slice(0, f.limit);
}

/** "3 min ago", "2 h ago", "5 d ago". */
export function age(ms: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}
