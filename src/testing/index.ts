// clinadmin/testing (package.json's exports): clinadmin serve for a JavaScript suite, started, driven and stopped
// from the test's code; serve and the sandbox verbs run in a child process (docs/ci.md says why).
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { ChildStart } from './protocol.js';
import { answerOf, asGiven, ExpectationError, filterArgs, type RecordedRequest, ServeError } from './sandbox.js';
import { ServeChild } from './serve-child.js';

export { ExpectationError, type RecordedRequest, ServeError };

/** serve's faults (`serve --help`): each off unless given. */
export interface Faults {
  /** Every answer waits this many milliseconds, or a random time in `'MIN-MAX'`. */
  latency?: number | string;
  /** The share (0 to 1) of API requests answered 503 with Retry-After, changing nothing. */
  failRate?: number;
  /** Past this many API requests in a second, 429 with Retry-After. */
  rateLimit?: number;
  /** `METHOD:PATH-PATTERN:STATUS` rules, such as `POST:/insurance-coverages:500`. */
  failOn?: string[];
}

export interface ServeOptions {
  /** The state to start from: a file as `serve --load` reads it, or that state as an object. */
  seed?: string | object;
  /** Fill the empty data file with the demo data (`serve --seed`); not with `seed`. */
  demo?: boolean;
  /** Keep the data in this file (and its snapshots beside it); by default a temporary one, removed at close. */
  dataFile?: string;
  /** More tokens serve accepts, as `TOKEN[:ACCOUNT[:admin]]`: the app under test's own. */
  tokens?: string[];
  /** The account of the admin token the handle uses (`token`); `local-admin` unless given. */
  account?: string;
  /** Keep request bodies in the request log, for `body` filters (`serve --record-bodies`); true unless false. */
  recordBodies?: boolean;
  /** Record a notification for each change (false: `serve --no-events`). */
  events?: boolean;
  faults?: Faults;
  /** Any other option of `clinadmin serve`, as its command line takes it (`['--journal-requests', '100']`). */
  args?: string[];
  /** How long serve may take to answer, in milliseconds; 60 s unless given. */
  startTimeout?: number;
}

/** The filters of `sandbox requests`, each its flag (`since: 'app'` is `--since app`); they combine. */
export interface RequestFilter {
  method?: string;
  /** A glob: `*` matches any characters, `/` included. */
  path?: string;
  status?: number;
  account?: string;
  /** Only requests after this mark. */
  since?: string;
  /** Only requests whose recorded body holds this JSON value (extra fields and elements ignored). */
  body?: unknown;
  /** `NAME=VALUE`: only requests that sent this header with exactly this value; each of a list must hold. */
  header?: string | string[];
  [flag: string]: unknown;
}

export interface Counts {
  measures: number;
  coverages: number;
  notifications: number;
}
export interface Snapshot extends Counts {
  name: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
}
export interface Contract {
  id: string;
  insured: string;
  insurer: string;
  insurerType?: string;
  insurerSubtype?: string;
}

/** A running `clinadmin serve` and the sandbox verbs, for one test file or suite. */
export interface TestServe {
  /** Where it listens: `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** An admin's token (it may use /_admin/): the one the verbs send. */
  readonly token: string;
  readonly dataFile: string;
  readonly pid: number;
  /** `CLINADMIN_BASE_URL` and `CLINADMIN_TOKEN`, for a clinadmin or an app started from the test. */
  readonly env: { CLINADMIN_BASE_URL: string; CLINADMIN_TOKEN: string };
  /** `sandbox snapshot NAME`: saves the whole state. */
  snapshot(name: string): Promise<Snapshot>;
  /** `sandbox snapshots`. */
  snapshots(): Promise<Snapshot[]>;
  /** `sandbox reset [NAME]`: a snapshot, or the state it started with (or last loaded); clears the request log. */
  reset(snapshot?: string): Promise<Counts & { snapshot: string | null }>;
  /** `sandbox load FILE [--merge]`: a file's state, or the state as an object. */
  load(state: string | object, options?: { merge?: boolean }): Promise<Counts & { merge: boolean; contracts: number }>;
  /** `sandbox contracts add`. */
  addContract(contract: Contract): Promise<Contract>;
  /** `sandbox mark NAME`: `requests({ since: NAME })` lists only what came after. */
  mark(name: string): Promise<{ mark: string; requests: number }>;
  /** `sandbox requests` with its filters: the requests serve answered, oldest first. */
  requests(filter?: RequestFilter): Promise<RecordedRequest[]>;
  /** `sandbox requests --clear`. */
  clearRequests(): Promise<void>;
  /** `sandbox requests --expect N`: the matching requests, else an ExpectationError saying what the CLI says. */
  expectRequests(count: number, filter?: RequestFilter): Promise<RecordedRequest[]>;
  /** Any `clinadmin sandbox` verb as its command line takes it (one added later too): its `-o json` answer. */
  sandbox(words: string[]): Promise<unknown>;
  /** Stops serve (SIGTERM: it saves its data) and removes what it made; again, or after it stopped, nothing. */
  close(): Promise<void>;
  /** close(), for `await using api = await startServe()`: stopped as the block ends, however it ends. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts `clinadmin serve` on a free port of 127.0.0.1 in a child process that stops with the test process,
 * and resolves once it answers.
 */
export async function startServe(options: ServeOptions = {}): Promise<TestServe> {
  if (options.seed !== undefined && options.demo) throw new ServeError('seed and demo both fill the data: give one', 2);
  const token = randomBytes(24).toString('base64url');
  const account = options.account ?? 'local-admin';
  const args = [`--token`, `${token}:${account}:admin`, ...(options.tokens ?? []).flatMap((t) => ['--token', t])];
  if (options.recordBodies !== false) args.push('--record-bodies');
  if (options.events === false) args.push('--no-events');
  if (options.demo) args.push('--seed');
  if (typeof options.seed === 'string') args.push('--load', resolve(options.seed));
  const f = options.faults ?? {};
  if (f.latency !== undefined) args.push('--latency', String(f.latency));
  if (f.failRate !== undefined) args.push('--fail-rate', String(f.failRate));
  if (f.rateLimit !== undefined) args.push('--rate-limit', String(f.rateLimit));
  for (const rule of f.failOn ?? []) args.push('--fail-on', rule);
  args.push(...(options.args ?? []));
  const start: Omit<ChildStart, 'folder'> = {
    args,
    token,
    ...(options.dataFile === undefined ? {} : { dataFile: resolve(options.dataFile) }),
    ...(options.seed === undefined || typeof options.seed === 'string' ? {} : { seed: JSON.stringify(options.seed) }),
  };
  const child = new ServeChild();
  const ready = await child.start(start, options.startTimeout ?? 60_000).catch((err: unknown) => {
    if (err instanceof ServeError && start.seed !== undefined)
      throw new ServeError(asGiven(err.message, 'seed'), err.exitCode);
    throw err;
  });
  const verb = async (argv: string[], stdin?: string) =>
    answerOf(await child.call(argv, stdin), argv, stdin !== undefined) as never;
  const close = () => child.stop();
  return {
    url: ready.ready,
    token,
    dataFile: ready.dataFile,
    pid: child.child.pid!,
    env: { CLINADMIN_BASE_URL: ready.ready, CLINADMIN_TOKEN: token },
    snapshot: (name) => verb(['snapshot', '-q', '--', name]),
    snapshots: () => verb(['snapshots']),
    reset: (name) => verb(['reset', '-q', ...(name === undefined ? [] : ['--', name])]),
    load: (state, o = {}) =>
      typeof state === 'string'
        ? verb(['load', resolve(state), ...(o.merge ? ['--merge'] : []), '-q'])
        : verb(['load', '-', ...(o.merge ? ['--merge'] : []), '-q'], JSON.stringify(state)),
    addContract: (c) =>
      verb(['contracts', 'add', '--insured', c.insured, '--insurer', c.insurer, ...contractTypes(c), '--', c.id]),
    mark: (name) => verb(['mark', '-q', '--', name]),
    requests: (filter = {}) => verb(['requests', ...filterArgs(filter)]),
    clearRequests: () => verb(['requests', '--clear', '-q']).then(() => undefined),
    expectRequests: (count, filter = {}) => verb(['requests', ...filterArgs(filter), '--expect', String(count)]),
    sandbox: (words) => verb(words),
    close,
    [Symbol.asyncDispose]: close,
  };
}

const contractTypes = (c: Contract) => [
  ...(c.insurerType === undefined ? [] : ['--insurer-type', c.insurerType]),
  ...(c.insurerSubtype === undefined ? [] : ['--insurer-subtype', c.insurerSubtype]),
];
