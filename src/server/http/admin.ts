import type { IncomingMessage, ServerResponse } from 'node:http';
import { findAmbiguity } from '../../formats/json/json-error.js';
import { withoutTrailingSlashes } from '../../strings.js';
import { isSandboxName, NAME_RULE, type SandboxState } from '../service/sandbox.js';
import { type Problem, problem, sendJson, sendList } from './problem.js';
import { type RequestLog, RequestLogFilterError } from './request-log.js';
import { headerFilter, requestLogFacts } from './request-log-view.js';
import { FaultsProblem, faultsView, type RuntimeFaults, readFaults } from './runtime-faults.js';

/** What the sandbox endpoints work on: the service's sandbox state, the request log, faults set at run time. */
export interface Sandbox {
  state: SandboxState;
  requestLog: RequestLog;
  /** Faults set at run time (`PUT /_admin/faults`), until cleared or a reset. */
  faults?: RuntimeFaults;
  /** The accounts of the tokens serve accepts: what `requests?account=` can name. */
  accounts?: readonly string[];
}

export class AdminProblem extends Error {
  constructor(readonly answer: Problem) {
    super(answer.detail);
  }
}

/** The largest state `POST /_admin/load` reads: a whole catalog, past --max-body's 1 MiB for a record. */
const LOAD_MAX_BODY = 64 * 1024 * 1024;

/**
 * `/_admin/…`, for test suites that use serve as a double: snapshots and reset (WireMock's reset,
 * LocalStack's state snapshots) and the request log. An admin's token (app.ts checks); none of it is recorded.
 */
export async function handleAdmin(
  sb: Sandbox,
  req: IncomingMessage,
  res: ServerResponse,
  readBody: (limit?: number) => Promise<unknown>,
  account = 'local-admin',
): Promise<void> {
  // The raw path, not a URL's: a parser would resolve %2E%2E as a dot segment before the name is checked.
  const [rawPath, query = ''] = (req.url ?? '/').split('?', 2);
  const path = withoutTrailingSlashes(rawPath);
  const method = req.method ?? 'GET';
  const refuse = (status: number, detail: string): never => {
    throw new AdminProblem(problem(status, detail));
  };
  const only = (...methods: string[]) => {
    if (!methods.includes(method)) refuse(405, `${method} is not allowed on ${path}; use ${methods.join(', ')}`);
  };
  // A name that is not percent-encoded UTF-8 is the request's fault, never a fault of the server.
  const decoded = (text: string, what: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return refuse(400, `a ${what} name is ${NAME_RULE}; got "${text}", which is not percent-encoded UTF-8`);
    }
  };
  const snapshot = /^\/_admin\/snapshots\/([^/]*)$/.exec(path);
  if (snapshot) {
    only('POST');
    const name = decoded(snapshot[1], 'snapshot');
    if (!isSandboxName(name)) refuse(400, `a snapshot name is ${NAME_RULE}; got "${name}"`);
    return sendJson(res, 200, await sb.state.save(name));
  }
  if (path === '/_admin/snapshots') {
    only('GET');
    return sendJson(res, 200, await sb.state.list());
  }
  if (path === '/_admin/reset') {
    only('POST');
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    const body = hasBody ? await readBody() : undefined;
    const name = body === undefined ? undefined : (body as { snapshot?: unknown }).snapshot;
    if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body)))
      refuse(400, 'send {"snapshot": "NAME"}, or no body for the state the server started with');
    if (name !== undefined && (typeof name !== 'string' || !isSandboxName(name)))
      refuse(400, `snapshot must be a snapshot's name; got ${JSON.stringify(name)}`);
    const counts = await sb.state.reset(name as string | undefined);
    sb.requestLog.clear();
    // A reset returns to a known state, faults included: the next test file starts without this one's.
    if (sb.faults) sb.requestLog.action(account, 'faults cleared by reset');
    sb.faults = undefined;
    return sendJson(res, 200, { snapshot: name ?? null, ...counts });
  }
  if (path === '/_admin/load') {
    only('POST');
    const merge = new URLSearchParams(query).get('merge');
    if (merge !== null && merge !== 'true' && merge !== 'false')
      refuse(400, `merge must be true or false; got ${merge}`);
    return sendJson(res, 200, await sb.state.load(await readBody(LOAD_MAX_BODY), merge === 'true', account));
  }
  if (path === '/_admin/contracts') {
    only('POST');
    return sendJson(res, 200, await sb.state.addContract(await readBody()));
  }
  if (path === '/_admin/requests') {
    only('GET', 'DELETE');
    if (method === 'DELETE') {
      sb.requestLog.clear();
      return sendJson(res, 200, { cleared: true });
    }
    const q = new URLSearchParams(query);
    const status = q.get('status');
    if (status !== null && !/^\d{3}$/.test(status))
      refuse(400, `status must be an HTTP status such as 201; got ${status}`);
    const bodyText = q.get('body');
    let body: unknown;
    if (bodyText !== null) {
      try {
        body = JSON.parse(bodyText);
      } catch {
        refuse(400, `body must be JSON; got ${bodyText.slice(0, 80)}`);
      }
      // Nested past MAX_DEPTH, or a key twice: refused, as a request body is.
      const odd = findAmbiguity(bodyText, body);
      if (odd) refuse(400, `body: ${odd.message}`);
    }
    try {
      return sendList(
        res,
        sb.requestLog.list({
          method: q.get('method') ?? undefined,
          path: q.get('path') ?? undefined,
          status: status === null ? undefined : Number(status),
          account: q.get('account') ?? undefined,
          since: q.get('since') ?? undefined,
          body,
          headers: headerFilter(q.getAll('header'), refuse),
        }),
      );
    } catch (err) {
      if (err instanceof RequestLogFilterError) refuse(err.status, err.message);
      throw err;
    }
  }
  if (path === '/_admin/faults') {
    only('GET', 'PUT', 'DELETE');
    if (method === 'PUT') {
      try {
        sb.faults = readFaults(await readBody());
      } catch (err) {
        if (err instanceof FaultsProblem) throw new AdminProblem(err.answer);
        throw err;
      }
      sb.requestLog.action(account, `faults set: ${JSON.stringify(faultsView(sb.faults))}`);
    }
    if (method === 'DELETE') {
      sb.faults = undefined;
      sb.requestLog.action(account, 'faults cleared');
    }
    return sendJson(res, 200, faultsView(sb.faults));
  }
  // The public path keeps the word journal: it answers what the request log cannot list.
  if (path === '/_admin/journal') {
    only('GET');
    return sendJson(
      res,
      200,
      requestLogFacts(sb.requestLog, sb.accounts ?? [], new URLSearchParams(query).get('since')),
    );
  }
  const mark = /^\/_admin\/marks\/([^/]*)$/.exec(path);
  if (mark) {
    only('POST');
    const name = decoded(mark[1], 'mark');
    if (!isSandboxName(name)) refuse(400, `a mark name is ${NAME_RULE}; got "${name}"`);
    try {
      return sendJson(res, 200, sb.requestLog.mark(name));
    } catch (err) {
      if (err instanceof RequestLogFilterError) refuse(err.status, err.message);
      throw err;
    }
  }
  refuse(404, `no such path: ${path}`);
}
