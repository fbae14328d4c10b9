import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { RESOURCES, type Resource } from '../../resources/index.js';
import { withoutTrailingSlashes } from '../../strings.js';
import { type Service, ServiceError } from '../service/service.js';
import { AdminProblem, handleAdmin, type Sandbox } from './admin.js';
import { createAuthenticator, type TokenEntry } from './auth.js';
import { createFaults, type Faults } from './faults.js';
import { HttpProblem, type Problem, problem, sendJson, sendList, sendProblem } from './problem.js';
import { ClientGone, linger, readJsonBody } from './read-body.js';

interface AppOptions {
  service: Service;
  tokens: TokenEntry[];
  /** Largest request body in bytes (default 1 MiB). */
  maxBody?: number;
  log?: (line: string) => void;
  /** Injected faults (`serve --latency`, `--fail-rate`, `--rate-limit`, `--fail-on`); none by default. */
  faults?: Faults;
  /** The sandbox endpoints (`/_admin/…`) and the request log; serve has them, a bare app does not. */
  sandbox?: Sandbox;
  /** Keep request bodies in the request log (`serve --record-bodies`). */
  recordBodies?: boolean;
}

/** What the request log learns of a request while it is handled. */
interface Seen {
  account?: string;
  /** The body's text as read, with `--record-bodies`. */
  body?: string;
  /** Whether that text was read as JSON: only then can the request log keep it whole, refused or not. */
  parsed?: boolean;
}

// The registry's paths, without their leading slash, as a request's first segment is split.
const byPath = new Map(RESOURCES.map((r) => [r.path.slice(1), r]));
const PUBLIC = ['/healthz', '/openapi.json'];

/** Answers with an injected fault instead of the API, when one was decided. */
function inject(fault: { status: number; detail: string; headers: Record<string, string> } | undefined): void {
  if (fault) throw new HttpProblem(problem(fault.status, fault.detail), fault.headers);
}

/** The whole API as a request handler; it does not listen, so tests and `serve` share it. */
export function createApp({
  service,
  tokens,
  maxBody = 1024 * 1024,
  log = (l) => process.stderr.write(`${l}\n`),
  faults,
  sandbox,
  recordBodies = false,
}: AppOptions): RequestListener {
  const authenticate = createAuthenticator(tokens);
  const injector = faults ? createFaults(faults) : undefined;
  let openapi: Promise<Record<string, unknown>> | undefined;

  async function handle(req: IncomingMessage, res: ServerResponse, seen: Seen): Promise<void> {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0];
    const open = PUBLIC.includes(path) && (method === 'GET' || method === 'HEAD');
    // Node keeps the first of two Authorization headers; which one a proxy meant is not ours to guess.
    const several = (req.headersDistinct.authorization?.length ?? 0) > 1;
    // Read before any latency, so a client gone while serve waits is logged as its account's, not a stranger.
    const caller = open || several ? undefined : authenticate(req.headers.authorization);
    if (caller) seen.account = caller.account;
    // Faults set at run time come first, and their latency takes the place of --latency.
    const now = sandbox?.faults?.injector;
    const faulty = [now, injector].filter((f) => f !== undefined);
    if (faulty.length > 0) {
      const ms = now?.delay() || (injector?.delay() ?? 0);
      if (ms > 0) await new Promise((r) => setTimeout(r, ms));
      // Faults on an API path come after authentication (a stranger learns nothing); --fail-on is explicit,
      // so it may also hit the public paths.
      if (open) for (const f of faulty) inject(f.inject(method, path, false));
    }
    // Public, like a health check: a CI job waits on /healthz, and a tool reads the contract, before any token.
    if (open && path === '/healthz') return sendJson(res, 200, { status: 'ok' });
    if (open) {
      openapi ??= import('./openapi.js').then((m) => m.openapiDocument());
      return sendJson(res, 200, await openapi);
    }
    if (several) throw new HttpProblem(problem(400, 'send one Authorization header, not several'));
    // Authentication comes before routing, so an unknown path tells a stranger nothing.
    if (caller === undefined) {
      throw new HttpProblem(problem(401, 'send a valid token as "Authorization: Bearer <token>"'), {
        'www-authenticate': 'Bearer realm="clinadmin"',
      });
    }
    const account = caller.account;
    if (sandbox && path.startsWith('/_admin/')) {
      // Another account's request bodies, and a reset under its feet, are an admin's business alone.
      if (!caller.admin) {
        throw new HttpProblem(
          problem(403, `/_admin/ needs a token marked admin when serve starts (--token TOKEN:ACCOUNT:admin)`),
        );
      }
      return handleAdmin(sandbox, req, res, (limit) => readJsonBody(req, limit ?? maxBody), account);
    }
    for (const f of faulty) inject(f.inject(method, path, true));
    // A serve extension: the contracts on file, read-only, so that a client refused with 422 can say
    // which contracts there are. The real service may not have it.
    if (/^\/contracts\/?(\?.*)?$/.test(req.url ?? '')) {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        throw new HttpProblem(problem(405, `${req.method} is not allowed on /contracts; use GET, HEAD`), {
          allow: 'GET, HEAD',
        });
      }
      return sendList(res, service.contracts());
    }
    const { resource, id } = route(req.url ?? '/');
    const reads = ['GET', 'HEAD'];
    const allowed = !resource.schemas ? reads : id === undefined ? [...reads, 'POST'] : [...reads, 'PATCH', 'DELETE'];
    if (!allowed.includes(method)) {
      throw new HttpProblem(problem(405, `${method} is not allowed on ${req.url}; use ${allowed.join(', ')}`), {
        allow: allowed.join(', '),
      });
    }
    if (method === 'GET' || method === 'HEAD') {
      // HEAD answers as GET would, headers only (Node sends no body), and changes nothing: not even seenBy.
      if (id === undefined) return sendList(res, await service.list(resource));
      const seenBy = method === 'GET' ? account : undefined;
      return sendJson(res, 200, await service.get(resource, id, seenBy));
    }
    if (method === 'DELETE') return sendJson(res, 200, await service.remove(resource, id!, account));
    const body = await readJsonBody(req, maxBody, recordBodies ? (text) => (seen.body = text) : undefined);
    seen.parsed = true;
    const rec =
      method === 'POST'
        ? await service.create(resource, body, account)
        : await service.update(resource, id!, body, account);
    sendJson(res, 200, rec);
  }

  return (req, res) => {
    const seen: Seen = {};
    const requestLog = sandbox?.requestLog;
    const path = (req.url ?? '/').split('?')[0];
    // The public paths, like /healthz, are answered to anyone: no entry of the request log, nor a refusal.
    const open = PUBLIC.includes(path) && (req.method === 'GET' || req.method === 'HEAD');
    if (requestLog && !open && !path.startsWith('/_admin/')) {
      const started = performance.now();
      res.once('close', () => {
        const q = (req.url ?? '').indexOf('?');
        // A client gone before any answer was answered nothing: Node's statusCode is then its unsent default 200.
        const status = res.headersSent ? res.statusCode : 0;
        const base = { time: Date.now(), method: req.method ?? 'GET', path, status };
        // A request that named no valid account (refused, two tokens, or gone before its token was read, its
        // status then Node's unsent 200) is counted apart: it can neither satisfy a check nor push an entry out.
        if (seen.account === undefined) return requestLog.refuse();
        requestLog.record(
          {
            ...base,
            query: q === -1 ? '' : (req.url ?? '').slice(q + 1),
            account: seen.account,
            durationMs: Math.round((performance.now() - started) * 10) / 10,
            headers: requestLog.headersOf(req.headers),
          },
          seen.body,
          seen.parsed,
        );
      });
    }
    handle(req, res, seen).catch((err: unknown) => {
      if (res.headersSent || err instanceof ClientGone) {
        res.destroy();
        return;
      }
      const { p, headers } = toProblem(err, log);
      sendProblem(res, p, headers);
      if (!req.complete) linger(req, Math.max(2 * maxBody, 4 * 2 ** 20));
    });
  };
}

function toProblem(err: unknown, log: (l: string) => void): { p: Problem; headers: Record<string, string> } {
  if (err instanceof HttpProblem) return { p: err.problem, headers: { ...err.headers } };
  if (err instanceof AdminProblem) return { p: err.answer, headers: {} };
  if (err instanceof ServiceError) {
    if (err.kind === 'unavailable')
      return { p: problem(503, `${err.message}; nothing was changed`), headers: { 'retry-after': '5' } };
    const status = { 'not-found': 404, 'unknown-contract': 422, conflict: 409, invalid: 400 }[err.kind];
    return { p: problem(status, err.message, err.errors), headers: {} };
  }
  log(`error: unexpected fault: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return {
    p: problem(500, 'the server met an unexpected fault; it was logged and the server keeps serving'),
    headers: {},
  };
}

function route(url: string): { resource: Resource; id?: string } {
  const path = withoutTrailingSlashes(url.split('?')[0]);
  const parts = path.split('/').slice(1);
  const resource = byPath.get(parts[0] ?? '');
  if (!resource || parts.length > 2) throw new HttpProblem(problem(404, `no such path: ${path || '/'}`));
  if (parts.length === 1) return { resource };
  let id: string;
  try {
    id = decodeURIComponent(parts[1]);
  } catch {
    throw new HttpProblem(problem(404, `no such path: ${path}`));
  }
  return { resource, id };
}
