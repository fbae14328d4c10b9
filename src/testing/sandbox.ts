import type { VerbAnswer } from './protocol.js';

/** One request as `sandbox requests -o json` gives it. */
export interface RecordedRequest {
  time: number;
  method: string;
  path: string;
  query?: string;
  status: number;
  account?: string;
  durationMs?: number;
  body?: unknown;
  bodyStart?: string;
  bodyBytes?: number;
  /** The headers the request log keeps that it sent, by lowercase name (`sandbox requests --header`). */
  headers?: Record<string, string>;
  [field: string]: unknown;
}

/** What clinadmin said when a verb failed: its message and hint as the CLI prints them, and its exit code. */
export class ServeError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'ServeError';
  }
}

/** `expectRequests` found another count: the CLI's sentence (near misses included) and the requests that matched. */
export class ExpectationError extends ServeError {
  constructor(
    message: string,
    readonly requests: RecordedRequest[],
  ) {
    super(message, 1);
    this.name = 'ExpectationError';
  }
}

/** serve and load read an object from stdin: a sentence about it names what the test gave, not stdin. */
export const asGiven = (said: string, name: string | undefined) =>
  name === undefined ? said : said.replace(/^error: stdin(?=[: ])/, `error: ${name}`);

/** stdout as JSON; words such as `--help` or `--version` print text instead, refused as a usage error. */
function jsonOf(a: VerbAnswer, argv: string[]): unknown {
  try {
    return JSON.parse(a.stdout);
  } catch {
    const first = a.stdout.trim().split('\n')[0];
    throw new ServeError(`error: clinadmin sandbox ${argv.join(' ')} printed text, not JSON: ${first}`, 2);
  }
}

/** A verb's answer as the handle gives it: the data of `-o json`, or the error that says what the CLI said. */
export function answerOf(a: VerbAnswer, argv: string[], stdinGiven: boolean): unknown {
  const said = asGiven(a.stderr.trim(), stdinGiven ? 'the state given' : undefined);
  const data = a.stdout.trim() === '' ? undefined : jsonOf(a, argv);
  // --expect's mismatch is exit 1 with the requests that did match on stdout; any other failure has no data.
  if (a.code === 1 && argv.includes('--expect') && Array.isArray(data)) throw new ExpectationError(said, data);
  if (a.code !== 0) throw new ServeError(said, a.code);
  return data;
}

/** A filter's fields as `sandbox requests` flags, by name (`since` is --since), so a new flag needs no code here. */
export function filterArgs(filter: Record<string, unknown>): string[] {
  const args: string[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    const flag = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    // The body is a JSON value to hold (a string too); a list elsewhere is the flag given once a value.
    if (key === 'body') args.push(flag, JSON.stringify(value));
    else for (const v of Array.isArray(value) ? value : [value]) args.push(flag, String(v));
  }
  return args;
}
