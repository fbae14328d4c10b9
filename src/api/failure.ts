import { ApiError, AuthError, NotFoundError } from '../errors.js';
import { readRefusal } from './refusal.js';
import { CONNECTION, type Headers } from './retry.js';
import { MAX_HELD_LIST_BYTES, MAX_RECORD_BYTES } from './transport.js';

// What an answer or a failed exchange means, as the typed error a person reads.

/** The peer's name in messages, its timeout, and the token's redaction. */
export interface Peer {
  baseUrl: string;
  timeoutMs: number;
  redact: (s: string) => string;
}

/** A 2xx answer's JSON; any other status as the error it means (401, 403, 404, a refusal, a failure). */
export function answer<T>(
  at: Peer,
  status: number,
  headers: Headers,
  text: string,
  method: string,
  path: string,
  list = false,
): T {
  const type = String(headers['content-type'] ?? '');
  let json: unknown;
  let parsed = false;
  const blank = !/\S/.test(text);
  if (!blank && /json/i.test(type || 'json')) {
    try {
      json = JSON.parse(text);
      parsed = true;
    } catch {
      parsed = false;
    }
  }
  if (status >= 200 && status < 300) {
    if (blank) throw new ApiError(`the API answered ${method} ${path} with an empty body`, status);
    if (!parsed) {
      const what = /json/i.test(type)
        ? 'a truncated or malformed JSON body'
        : `a body that is not JSON (${type.split(';')[0] || 'no content type'})`;
      throw new ApiError(
        `the API answered ${method} ${path} with ${what}`,
        status,
        [],
        'check that the base URL points at the API, not a web page',
      );
    }
    return json as T;
  }
  const refusal = readRefusal(status, type, text, parsed ? json : undefined, (t) => at.redact(t));
  const said = refusal.code ? `${refusal.said} (${refusal.code})` : refusal.said;
  const { details } = refusal;
  if (status === 401) {
    throw new AuthError(`the API refused the token (401): ${said}`, 'run `clinadmin login` or set CLINADMIN_TOKEN');
  }
  // 403: the token was accepted, and logging in again cannot help.
  if (status === 403) throw new AuthError(`the API does not allow ${method} ${path} (403): ${said}`);
  // A 404 for a whole collection (a list, a create) is not a missing record: the base URL is wrong.
  if (status === 404 && (list || method === 'POST')) {
    throw new NotFoundError(
      `the API at ${at.baseUrl} has no ${path} (404: ${said})`,
      'check the base URL with `clinadmin whoami`',
    );
  }
  if (status === 404) throw new NotFoundError(said);
  if (!parsed && status >= 500 && said === `HTTP ${status}`)
    throw new ApiError(`the API failed with HTTP ${status} and no problem details`, status);
  // A 5xx is the server failing, not refusing what was sent.
  const verb = status >= 500 ? 'failed on' : 'refused';
  throw new ApiError(`the API ${verb} ${method} ${path} (${status}): ${said}`, status, details);
}

/** A failed exchange (`code` from errorCode) as the sentence a person reads; `records` already handed on. */
export function networkError(at: Peer, err: unknown, code: string | undefined, path: string, records = 0): ApiError {
  // A list cut off: what was written before is incomplete, and says so.
  if (code === 'CLINADMIN_TRUNCATED') {
    return new ApiError(
      `the API answered GET ${path} with a truncated or malformed JSON body`,
      undefined,
      [],
      records > 0
        ? `${records} records were written before it; run the command again`
        : 'check that the base URL points at the API, not a web page',
    );
  }
  if (CONNECTION.has(code ?? '') && records > 0) {
    return new ApiError(
      `the connection to ${at.baseUrl} broke after ${records} records of the list; what was written is incomplete`,
      undefined,
      [],
      'run the command again',
    );
  }
  if (code === 'CLINADMIN_NOT_RECORD') return notARecord(at, path, records, (err as { value?: unknown }).value);
  if (code === 'CLINADMIN_MALFORMED') {
    return new ApiError(
      `the API at ${at.baseUrl} sent a list that is not valid JSON`,
      undefined,
      [],
      'try again; if it persists, check the server',
    );
  }
  if (code === 'CLINADMIN_LIST_TOO_LARGE') {
    return new ApiError(
      `the API at ${at.baseUrl} sent a list larger than ${MAX_HELD_LIST_BYTES / 2 ** 20} MiB, ` +
        'too large to hold for this view',
      undefined,
      [],
      'use -o table, -o ndjson, -o json or -o csv, which stream a list of any length',
    );
  }
  if (code === 'CLINADMIN_TOO_LARGE') {
    return new ApiError(
      `the API at ${at.baseUrl} sent a record (or an answer that is not a list) larger than ` +
        `${MAX_RECORD_BYTES / 2 ** 20} MiB, the cap for one; it was refused`,
    );
  }
  if (
    code === 'CLINADMIN_DEADLINE' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'TimeoutError' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    const cut = records > 0 ? ` after ${records} records of the list; what was written is incomplete` : '';
    return new ApiError(
      `the API at ${at.baseUrl} did not answer within ${at.timeoutMs / 1000} s${cut}`,
      undefined,
      [],
      'try again, or raise --timeout',
    );
  }
  if (code === 'ECONNREFUSED')
    return new ApiError(
      `cannot connect to the API at ${at.baseUrl}: connection refused`,
      undefined,
      [],
      'is the server running? check the base URL with `clinadmin whoami`',
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new ApiError(
      `cannot find the host of ${at.baseUrl}`,
      undefined,
      [],
      'check the base URL with `clinadmin whoami`',
    );
  const message = at.redact((err as Error)?.message ?? String(err));
  return new ApiError(`the connection to ${at.baseUrl} failed: ${message}`);
}

/** The records of a list answer: an array, or the one array property of an object (a wrapper). */
/** A list's element `n` (from 1) that is not a record: what it is (a type, never the server's bytes). */
export function notARecord(at: Peer, path: string, n: number, value: unknown): ApiError {
  const what = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  return new ApiError(
    `the API at ${at.baseUrl} answered GET ${path} with a list whose element ${n} is ${what}, not a record`,
    undefined,
    [],
    // Whether records before it were written depends on the view (a table or YAML holds them): not said.
    'the list was read no further; check the server',
  );
}

export function listIn(value: unknown, path: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object') {
    const arrays = Object.entries(value).filter(([, v]) => Array.isArray(v));
    if (arrays.length === 1) return arrays[0][1] as unknown[];
  }
  const what =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'an array'
        : typeof value === 'object'
          ? `an object with keys ${Object.keys(value).slice(0, 5).join(', ') || '(none)'}`
          : `a ${typeof value}`;
  throw new ApiError(`the API answered GET ${path} with ${what}, not a list`, undefined, [], 'check the base URL');
}
