import type { IncomingMessage, ServerResponse } from 'node:http';
import { withoutTrailingSlashes } from '../linear.js';
import { resetLine } from './journal.js';
import { type Problem, problem, sendJson, sendList } from './problem.js';
import type { RequestJournal } from './requests.js';
import { isSnapshotName, listSnapshots, readSnapshot, saveSnapshot } from './snapshots.js';
import type { State, Store } from './store.js';

/** What the sandbox endpoints work on: the store, where its data file is, and the state it started with. */
export interface Sandbox {
  store: Store;
  dataFile: string;
  initial: State;
  requests: RequestJournal;
  /**
   * Snapshots already read or saved, with their journal line: records are replaced, never changed in
   * place, so a state can be shared, and a reset costs one write. `''` is the state the server started with.
   */
  cache?: Map<string, { state: State; line: string }>;
}

/** A snapshot's state and journal line, from the cache or its file; undefined when there is none. */
async function stateOf(sb: Sandbox, name: string | undefined) {
  sb.cache ??= new Map();
  const key = name ?? '';
  let known = sb.cache.get(key);
  if (!known) {
    const state = name === undefined ? sb.initial : await readSnapshot(sb.dataFile, name);
    if (!state) return undefined;
    known = { state, line: resetLine(state) };
    sb.cache.set(key, known);
  }
  return known;
}

export class AdminProblem extends Error {
  constructor(readonly answer: Problem) {
    super(answer.detail);
  }
}

const counts = (s: State) => ({
  measures: s.diagnosticMeasures.length,
  coverages: s.insuranceCoverages.length,
  notifications: s.notifications.length,
});

/**
 * `/_admin/…`, for test suites that use serve as a double: snapshots and reset (WireMock's reset,
 * LocalStack's state snapshots) and the request journal. An admin's token (app.ts checks); none of it is recorded.
 */
export async function handleAdmin(
  sb: Sandbox,
  req: IncomingMessage,
  res: ServerResponse,
  readBody: () => Promise<unknown>,
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
  const snapshot = /^\/_admin\/snapshots\/([^/]*)$/.exec(path);
  if (snapshot) {
    only('POST');
    const name = decodeURIComponent(snapshot[1]);
    if (!isSnapshotName(name))
      refuse(400, `a snapshot name is letters, digits, ".", "_" and "-" (at most 64, no ".."); got "${name}"`);
    await sb.store.settle();
    const state = sb.store.state();
    const info = await saveSnapshot(sb.dataFile, name, state);
    sb.cache ??= new Map();
    sb.cache.set(name, { state, line: resetLine(state) });
    return sendJson(res, 200, info);
  }
  if (path === '/_admin/snapshots') {
    only('GET');
    return sendJson(res, 200, await listSnapshots(sb.dataFile));
  }
  if (path === '/_admin/reset') {
    only('POST');
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    const body = hasBody ? await readBody() : undefined;
    const name = body === undefined ? undefined : (body as { snapshot?: unknown }).snapshot;
    if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body)))
      refuse(400, 'send {"snapshot": "NAME"}, or no body for the state the server started with');
    if (name !== undefined && (typeof name !== 'string' || !isSnapshotName(name)))
      refuse(400, `snapshot must be a snapshot's name; got ${JSON.stringify(name)}`);
    const known = await stateOf(sb, name as string | undefined);
    if (!known) return refuse(404, `no snapshot named ${String(name)}`);
    await sb.store.reset(known.state, known.line);
    sb.requests.clear();
    return sendJson(res, 200, { snapshot: name ?? null, ...counts(known.state) });
  }
  if (path === '/_admin/requests') {
    only('GET', 'DELETE');
    if (method === 'DELETE') {
      sb.requests.clear();
      return sendJson(res, 200, { cleared: true });
    }
    const q = new URLSearchParams(query);
    const status = q.get('status');
    if (status !== null && !/^\d{3}$/.test(status))
      refuse(400, `status must be an HTTP status such as 201; got ${status}`);
    return sendList(
      res,
      sb.requests.list({
        method: q.get('method') ?? undefined,
        path: q.get('path') ?? undefined,
        status: status === null ? undefined : Number(status),
      }),
    );
  }
  refuse(404, `no such path: ${path}`);
}
