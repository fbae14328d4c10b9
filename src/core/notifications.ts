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

/** `--since 2h`, `30m`, `7d`, or a date such as 2026-11-20 or 2026-11-20T08:00; undefined when neither. */
export function parseSince(value: string, now = Date.now()): number | undefined {
  const m = /^(\d+(?:\.\d+)?)([smhdw])$/.exec(value.trim());
  if (m) return now - Number(m[1]) * UNITS[m[2]];
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

export interface NotificationFilter {
  type?: string;
  code?: string;
  since?: number;
  /** Leave out what this account has seen. */
  unseenBy?: string;
  limit?: number;
}

/** The API documents no filters, so they run here: newest first. */
export function filterNotifications<T extends NotificationLike>(list: T[], f: NotificationFilter): T[] {
  const out = list
    .filter((n) => (f.type === undefined || n.type === f.type) && (f.code === undefined || n.code === f.code))
    .filter((n) => f.since === undefined || (epochMs(n.createdAt) ?? 0) >= f.since)
    .filter((n) => f.unseenBy === undefined || !(n.seenBy ?? []).includes(f.unseenBy))
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
