import type { Ctx } from '../../context.js';
import { nearest } from '../../core/nearest.js';
import { AuthError, EXIT, NotFoundError, UsageError } from '../../errors.js';
import type { Rec } from '../../formats/json/record.js';
import { col, localTime } from '../../output/columns.js';
import { present } from '../../output/present.js';
import { unstyled } from '../../output/terminal.js';
import { nearMisses } from '../../server/http/near-miss.js';
import { counted } from '../../strings.js';
import { enc, type Opts, withClient } from '../shared.js';
import { filterFault, type RequestLogFacts, windowFault } from './request-log-check.js';

export type SandboxVerb =
  | 'snapshot'
  | 'reset'
  | 'snapshots'
  | 'load'
  | 'contracts-add'
  | 'mark'
  | 'requests'
  | 'faults-set'
  | 'faults-clear'
  | 'faults-list';

const SNAPSHOT_COLUMNS = [
  ['name', 'NAME'],
  ['createdAt', 'CREATED'],
  ['measures', 'MEASURES'],
  ['coverages', 'COVERAGES'],
  ['notifications', 'NOTIFICATIONS'],
];
const REQUEST_COLUMNS = [
  ['time', 'TIME'],
  ['method', 'METHOD'],
  ['path', 'PATH'],
  ['query', 'QUERY'],
  ['status', 'STATUS'],
  ['account', 'ACCOUNT'],
  ['durationMs', 'MS'],
];
const FAULT_COLUMNS = [
  ['failOn', 'FAIL ON'],
  ['latency', 'LATENCY'],
];
const CONTRACT_COLUMNS = [
  ['id', 'ID'],
  ['insured', 'INSURED'],
  ['insurer', 'INSURER'],
  ['insurerType', 'INSURER TYPE'],
  ['insurerSubtype', 'INSURER SUBTYPE'],
];
/** The filters of `requests`, as the query of GET /_admin/requests names them. */
const FILTERS = ['method', 'path', 'status', 'account', 'since', 'body'] as const;

type SandboxOpts = Opts & {
  method?: string;
  path?: string;
  status?: string;
  account?: string;
  since?: string;
  body?: string;
  expect?: number;
  clear?: boolean;
  merge?: boolean;
  quiet?: boolean;
  insured?: string;
  insurer?: string;
  insurerType?: string;
  insurerSubtype?: string;
  failOn?: string[];
  latency?: string;
  header?: string[];
};

/** One sandbox verb: the request, then the answer through present(); the exit code. */
export async function sandboxAction(
  ctx: Ctx,
  verb: SandboxVerb,
  opts: SandboxOpts,
  args: (string | undefined)[],
): Promise<number> {
  const name = args[0];
  const expect = opts.expect;
  if (opts.status !== undefined && !/^\d{3}$/.test(opts.status))
    throw new UsageError(`--status must be an HTTP status such as 201 (got "${opts.status}")`);
  if (opts.body !== undefined) {
    const { parseJson } = await import('../../formats/input.js');
    parseJson(opts.body, '--body');
  }
  const given = FILTERS.filter((k) => opts[k] !== undefined);
  const headers = opts.header ?? [];
  for (const h of headers)
    if (h.indexOf('=') <= 0)
      throw new UsageError(`--header must be NAME=VALUE (got "${h}")`, 'e.g. --header Idempotency-Key=abc-1');
  if (opts.clear && (given.length > 0 || headers.length > 0 || expect !== undefined))
    throw new UsageError('--clear empties the whole request journal; give it without filters or --expect');
  let body: unknown;
  if (verb === 'faults-set') body = await faultsBody(opts);
  if (verb === 'load') {
    const { parseJson, readText } = await import('../../formats/input.js');
    const { text, name: source } = await readText(ctx, name!);
    body = parseJson(text, source);
    (await import('../../core/load-ages.js')).readLoadAges(body, source);
  }
  let facts: RequestLogFacts | undefined;
  let window: Rec[] | undefined;
  const data = await withClient(ctx, opts, async ({ client }) => {
    try {
      if (verb === 'snapshot') return await client.request<Rec>('POST', `/_admin/snapshots/${enc(name!)}`);
      if (verb === 'reset')
        return await client.request<Rec>('POST', '/_admin/reset', name === undefined ? undefined : { snapshot: name });
      if (verb === 'snapshots') return await client.request<Rec[]>('GET', '/_admin/snapshots');
      if (verb === 'load')
        return await client.request<Rec>('POST', `/_admin/load${opts.merge ? '?merge=true' : ''}`, body);
      if (verb === 'contracts-add') {
        const contract: Rec = { id: name, insured: opts.insured, insurer: opts.insurer };
        if (opts.insurerType !== undefined) contract.insurerType = opts.insurerType;
        if (opts.insurerSubtype !== undefined) contract.insurerSubtype = opts.insurerSubtype;
        return await client.request<Rec>('POST', '/_admin/contracts', contract);
      }
      if (verb === 'mark') return await client.request<Rec>('POST', `/_admin/marks/${enc(name!)}`);
      if (verb === 'faults-set') return await client.request<Rec>('PUT', '/_admin/faults', body);
      if (verb === 'faults-clear') return await client.request<Rec>('DELETE', '/_admin/faults');
      if (verb === 'faults-list') return await client.request<Rec>('GET', '/_admin/faults');
      if (opts.clear) return await client.request<Rec>('DELETE', '/_admin/requests');
      const q = new URLSearchParams();
      for (const k of given) q.set(k, opts[k]!);
      for (const h of headers) q.append('header', h);
      const since = opts.since === undefined ? '' : `?${new URLSearchParams({ since: opts.since })}`;
      const factsOf = () => client.request<RequestLogFacts>('GET', `/_admin/journal${since}`);
      try {
        const listed = await client.request<Rec[]>('GET', `/_admin/requests${q.size > 0 ? `?${q}` : ''}`);
        // Asked after the list, so a request dropped while it was read is counted, never missed.
        facts = await factsOf();
        // Fewer than expected: the rest of the window holds the near misses.
        if (expect !== undefined && listed.length < expect && filterFault(opts, facts) === undefined)
          window = await client.request<Rec[]>('GET', `/_admin/requests${since}`);
        return listed;
      } catch (err) {
        if (!(err instanceof NotFoundError && opts.since !== undefined && err.message.includes('no mark'))) throw err;
        facts = await factsOf();
        return [];
      }
    } catch (err) {
      if (err instanceof NotFoundError && verb === 'reset' && name !== undefined) {
        const names = (await client.request<Rec[]>('GET', '/_admin/snapshots')).map((r) => String(r.name));
        const near = nearest(name, names);
        throw new NotFoundError(
          `the server has no snapshot named ${name}`,
          near === undefined ? 'list them: clinadmin sandbox snapshots' : `did you mean ${near}?`,
        );
      }
      if (err instanceof NotFoundError)
        throw new NotFoundError("the server has no sandbox endpoints (/_admin/…): they are clinadmin serve's");
      // The token is valid but not an admin's: only serve's command line can make it one.
      if (err instanceof AuthError && err.message.includes('(403)'))
        throw new AuthError(
          err.message,
          'the sandbox needs a token marked admin when serve starts: --token TOKEN:ACCOUNT:admin ' +
            '(the same in CLINADMIN_SERVE_TOKENS or --token-file)',
        );
      throw err;
    }
  });
  // Its lines carry the server's words (names, paths, bodies) and none of our colors.
  const people = unstyled(ctx.stderr);
  const say = (line: string) => {
    if (!opts.quiet) people.write(`${line}\n`);
  };
  if (facts) {
    const fault = filterFault(opts, facts);
    if (fault) throw fault;
    // A count that cannot see its whole window fails; a list says so and goes on.
    const blind = windowFault(facts, opts.since);
    if (blind && expect !== undefined) throw blind;
    if (blind) say(`warning: ${blind.message}; ${blind.hint}`);
  }
  const time = (key: string, header: string) => ({ ...col(key, header, true), value: (r: Rec) => localTime(r[key]) });
  const table = verb.startsWith('faults')
    ? FAULT_COLUMNS
    : verb === 'requests'
      ? REQUEST_COLUMNS
      : verb === 'contracts-add'
        ? CONTRACT_COLUMNS
        : SNAPSHOT_COLUMNS;
  const columns = table.map(([key, header]) =>
    key === 'time' || key === 'createdAt' ? time(key, header) : col(key, header, true),
  );
  const d = data as Rec;
  if (verb === 'requests' && opts.clear) {
    say('cleared the request journal');
    return EXIT.ok;
  }
  if (verb === 'requests' && expect !== undefined) {
    const found = (data as Rec[]).length;
    if (found !== expect) {
      const which = [
        ...given.map((k) => (k === 'method' || k === 'path' ? opts[k] : `${k} ${opts[k]}`)),
        ...headers.map((h) => `header ${h}`),
      ].join(' ');
      people.write(
        `expected ${expect} ${expect === 1 ? 'request' : 'requests'} matching ${which || 'any'}, found ${found}\n`,
      );
      const refused = facts?.window?.refused ?? 0;
      if (refused > 0)
        people.write(
          `${refused === 1 ? '1 request' : `${refused} requests`} without a valid token (401 or 403) in the window ` +
            `${refused === 1 ? 'is' : 'are'} not counted: check the token the app sends\n`,
        );
      if (window) {
        const asked = { ...opts, body: opts.body === undefined ? undefined : JSON.parse(opts.body) };
        for (const line of nearMisses(window, asked)) people.write(`${line}\n`);
      }
      await present(ctx, data, { ...opts, columns });
      return EXIT.failure;
    }
  }
  const n = (key: string) => counted(Number(d[key]), key.slice(0, -1));
  const held = `${n('measures')}, ${n('coverages')}, ${n('notifications')}`;
  if (verb === 'snapshot') say(`saved snapshot ${String(d.name)}: ${held}`);
  const initial = 'the state the server started with or last loaded';
  if (verb === 'reset') say(`reset to ${d.snapshot === null ? initial : `snapshot ${String(d.snapshot)}`}: ${held}`);
  if (verb === 'load') say(`${d.merge ? 'merged' : 'loaded'} ${name}: the server holds ${held}, ${n('contracts')}`);
  if (verb === 'mark') say(`marked the request journal as ${name}`);
  if (verb === 'faults-set') say(`set faults: ${describeFaults(d)}`);
  if (verb === 'faults-clear') say('cleared the faults set at run time');
  await present(ctx, data, { ...opts, columns });
  return EXIT.ok;
}

/** The body of PUT /_admin/faults, each rule checked as serve checks its own flags, before anything is sent. */
async function faultsBody(opts: SandboxOpts): Promise<Rec> {
  const { parseFailOn, parseLatency } = await import('../../server/http/faults.js');
  const failOn = opts.failOn ?? [];
  if (failOn.length === 0 && opts.latency === undefined)
    throw new UsageError('give --fail-on, --latency or both', 'to clear the faults: clinadmin sandbox faults clear');
  for (const rule of failOn)
    if (!parseFailOn(rule))
      throw new UsageError(
        `--fail-on must be METHOD:PATH-PATTERN:STATUS with a status from 400 to 599 (got "${rule}")`,
        'e.g. --fail-on POST:/insurance-coverages:500',
      );
  if (opts.latency !== undefined && !parseLatency(opts.latency))
    throw new UsageError(`--latency must be MS or MIN-MAX whole milliseconds, at most 60000 (got "${opts.latency}")`);
  return opts.latency === undefined ? { failOn } : { failOn, latency: opts.latency };
}

/** The faults as serve's flags would say them. */
function describeFaults(d: Rec): string {
  const parts = (d.failOn as string[]).map((r) => `--fail-on ${r}`);
  if (d.latency !== null) parts.push(`--latency ${String(d.latency)}`);
  return parts.join(' ') || 'none';
}
