// When an exchange is worth trying again, and how long to wait first.

export type Headers = Record<string, string | string[] | undefined>;

const RETRY_STATUS = new Set([429, 502, 503, 504]);

/**
 * The methods whose request may be sent again after it may have been applied: the idempotent ones of
 * RFC 9110 §9.2.2 (GET, HEAD, OPTIONS, PUT, DELETE). Not POST, and not PATCH: RFC 5789 §2 says PATCH is
 * neither safe nor idempotent, and §9.2.2 asks a client not to repeat one unless it knows the request is.
 * Ours is not quite: the server gives a range sent without an id a new id each time it applies it, and
 * another client's change made between the two would be undone. Any request is still sent again when it
 * surely was not sent (NOT_SENT) or was refused unprocessed (mayRetry).
 */
export const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** Attempts after a 429 or a 503 with Retry-After: the server said it did nothing and when to come back. */
const REFUSED_RETRIES = 10;
/** Errors raised before a connection existed: the request surely was not sent. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
export const CONNECTION = new Set([
  ...NOT_SENT,
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ETIMEDOUT',
]);

/**
 * Whether an answer is worth sending the request again. 429, and 503 with Retry-After, say the
 * request was refused unprocessed (RFC 6585, RFC 9110 §15.6.4: "come back later"), so even a POST is
 * sent again, and a server shedding load gets more patience (10 attempts, each after its Retry-After).
 * A 502, 504 or a bare 503 may have been processed: only a request that may be repeated is.
 */
export function mayRetry(status: number, headers: Headers, mayRepeat: boolean, attempt: number, retries: number) {
  const refused = status === 429 || (status === 503 && headers['retry-after'] !== undefined);
  if (refused) return attempt < REFUSED_RETRIES;
  return RETRY_STATUS.has(status) && mayRepeat && attempt < retries;
}

/** Whether a failed exchange may be sent again: one surely not sent, or a repeatable one cut before any record. */
export function mayResend(code: string | undefined, mayRepeat: boolean, records: number): boolean {
  if (records > 0) return false;
  return (mayRepeat && CONNECTION.has(code ?? '')) || NOT_SENT.has(code ?? '');
}

export function backoff(attempt: number): number {
  return Math.min(4000, 200 * 2 ** attempt) * (0.75 + Math.random() * 0.5);
}

/**
 * Retry-After in milliseconds, uncapped: delay-seconds (digits only) or an HTTP-date, which names its day
 * and a time (RFC 9110 §10.2.3). Anything else (`-5`, `0x10`, `garbage 1`, which Date.parse reads as
 * 2001) is no Retry-After, so the backoff applies rather than a wait a garbled header made up.
 */
export function retryAfter(value: string | string[] | undefined): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  if (!/^[A-Za-z]{3,9},? .*\d\d:\d\d:\d\d/.test(v)) return undefined;
  const ms = Date.parse(v) - Date.now();
  return Number.isFinite(ms) ? Math.max(0, ms) : undefined;
}

export function errorCode(err: unknown): string | undefined {
  const e = err as { code?: string; name?: string; cause?: { code?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'TimeoutError';
  return e?.code ?? e?.cause?.code;
}
