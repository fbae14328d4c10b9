import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { COLLECTIONS, type CollectionName } from '../schemas/data-file.js';
import { counted } from '../strings.js';
import { createApp } from './http/app.js';
import type { TokenEntry } from './http/auth.js';
import type { Faults } from './http/faults.js';
import { problem, problemResponse } from './http/problem.js';
import { REQUEST_LOG_BYTES, REQUEST_LOG_HEADERS, RequestLog } from './http/request-log.js';
import { LoadError, loadState } from './service/load-file.js';
import { createSandboxState } from './service/sandbox.js';
import { seedData } from './service/seed.js';
import { createService } from './service/service.js';
import { DataFileError } from './store/data-file.js';
import { resetLine } from './store/journal.js';
import { checkSnapshotFolders, saveSnapshot } from './store/snapshots.js';
import { type State, Store } from './store/store.js';

interface StartOptions {
  dataFile: string;
  host: string;
  port: number;
  tokens: TokenEntry[];
  events: boolean;
  seed: boolean;
  maxBody: number;
  /** Milliseconds for a request's headers, and for the whole request (slow clients are cut off). */
  headersTimeout?: number;
  requestTimeout?: number;
  faults?: Faults;
  /** Requests kept for GET /_admin/requests (default 10,000; 0 none), with their bodies when asked. */
  requestLogMaxRequests?: number;
  /** Bytes the request log may hold, paths, queries and bodies counted (default 32 MiB). */
  requestLogMaxBytes?: number;
  recordBodies?: boolean;
  /** Request headers the request log keeps besides REQUEST_LOG_HEADERS, lowercase (`--journal-header`). */
  requestLogHeaders?: string[];
  /** Notifications kept, the oldest dropped at each fold (default 10,000; 0 keeps all). */
  keepNotifications?: number;
  /** `XDG_RUNTIME_DIR`: this user's runtime folder, where locks by inode meet. */
  runtimeDir?: string;
  /** `--load FILE`: the file's parsed JSON and its name; the state replaces what the data file held. */
  load?: { raw: unknown; name: string };
  warn: (message: string) => void;
  /** A sentence for the person who started serve (what --load did), on stderr. */
  note?: (message: string) => void;
}

export interface RunningServer {
  url: string;
  server: Server;
  store: Store;
  /**
   * Stops accepting, lets requests in flight finish for up to `graceMs` (then closes the connections left,
   * as a client that stops reading must not hold the server), flushes, and folds the journal into the data file.
   */
  close: (graceMs?: number) => Promise<void>;
}

/** How long a stop waits for the requests in flight before it closes their connections. */
const STOP_GRACE_MS = 10_000;

export async function startServer(o: StartOptions): Promise<RunningServer> {
  // A file that cannot be loaded stops serve before the data file is touched.
  const loaded = o.load && { state: loadFile(o.load, o.tokens), name: o.load.name };
  const store = await Store.open({
    file: o.dataFile,
    warn: o.warn,
    keepNotifications: o.keepNotifications ?? 10_000,
    runtimeDir: o.runtimeDir,
  });
  try {
    // Judged at the start, so a planted snapshots folder is said at once, not at the first snapshot.
    await checkSnapshotFolders(store.file);
    if (o.seed) await seed(store, o.warn);
    if (loaded) await load(store, loaded, o.note);
    const service = createService({ store, events: o.events });
    // The state it started with is what a reset without a snapshot restores.
    const sandbox = {
      state: createSandboxState(store),
      requestLog: new RequestLog(
        o.requestLogMaxRequests ?? 10_000,
        o.requestLogMaxBytes ?? REQUEST_LOG_BYTES,
        Boolean(o.recordBodies),
        [...new Set([...REQUEST_LOG_HEADERS, ...(o.requestLogHeaders ?? [])])],
      ),
      accounts: o.tokens.map((t) => t.account),
    };
    const app = createApp({
      service,
      tokens: o.tokens,
      maxBody: o.maxBody,
      log: (l) => o.warn(l),
      faults: o.faults,
      sandbox,
      recordBodies: o.recordBodies,
    });
    let inFlight = 0;
    let closing = false;
    const headersTimeout = o.headersTimeout ?? 10_000;
    const requestTimeout = o.requestTimeout ?? 30_000;
    // Node checks these timeouts on an interval; keep it well under the shortest of them.
    const server = createServer(
      { connectionsCheckingInterval: Math.max(100, Math.min(headersTimeout, requestTimeout) / 4) },
      (req, res) => {
        inFlight++;
        res.on('close', () => {
          inFlight--;
          if (closing && inFlight === 0) server.closeAllConnections();
        });
        app(req, res);
      },
    );
    server.on('clientError', answerParserError);
    // Slow or endless headers and bodies are cut off rather than held open.
    server.headersTimeout = headersTimeout;
    server.requestTimeout = Math.max(requestTimeout, headersTimeout);
    server.keepAliveTimeout = 5_000;
    // The write deadline: a connection with no progress either way for this long (a client that stopped
    // reading a list, say) is closed, so no answer holds the server for ever.
    server.timeout = server.requestTimeout;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(o.port, o.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    const host = o.host.includes(':') ? `[${o.host}]` : o.host;
    return {
      url: `http://${host}:${port}`,
      server,
      store,
      close: async (graceMs = STOP_GRACE_MS) => {
        closing = true;
        const stopped = new Promise<void>((r) => server.close(() => r()));
        server.closeIdleConnections();
        if (inFlight === 0) server.closeAllConnections();
        const late = setTimeout(() => server.closeAllConnections(), graceMs);
        await stopped;
        clearTimeout(late);
        await store.close();
      },
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}

async function seed(store: Store, warn: (m: string) => void): Promise<void> {
  if (COLLECTIONS.some((c) => store.count(c) > 0)) {
    warn('--seed left the data file alone: it already holds records');
    return;
  }
  const data = seedData();
  const writes = COLLECTIONS.flatMap((coll: CollectionName) =>
    (data[coll] as { id: string }[]).map((r) => ({
      coll,
      id: r.id,
      after: r as { id: string } & Record<string, unknown>,
    })),
  );
  await store.commit(writes);
}

const held = (s: State) =>
  `${counted(s.diagnosticMeasures.length, 'measure')}, ${counted(s.insuranceCoverages.length, 'coverage')}, ` +
  `${counted(s.contracts.length, 'contract')}, ${counted(s.notifications.length, 'notification')}`;

/** The state `--load` names, checked; records an export wrote without `createdBy` get the first admin's account. */
function loadFile(from: { raw: unknown; name: string }, tokens: TokenEntry[]): State {
  try {
    return loadState(from.raw, { account: tokens.find((t) => t.admin)?.account ?? 'local-admin' });
  } catch (err) {
    if (err instanceof LoadError)
      throw new DataFileError(`${from.name}: ${err.message}; fix the file, then start again`);
    throw err;
  }
}

/**
 * `--load`: the file's state replaces what the data file held, in one journal line and with no notification.
 * What it replaced is kept as the snapshot `before-load`, so nothing is lost.
 */
async function load(
  store: Store,
  { state, name }: { state: State; name: string },
  note: (m: string) => void = () => undefined,
): Promise<void> {
  const before = store.acknowledged();
  const had = COLLECTIONS.some((c) => before[c].length > 0);
  if (had) await saveSnapshot(store.file, 'before-load', before);
  await store.reset(state, resetLine(state));
  note(
    `loaded ${name}: ${held(state)}` +
      (had ? `; it replaced what ${store.file} held (${held(before)}), kept as snapshot before-load` : ''),
  );
}

/** Requests Node's parser refused before any handler saw them get problem+json too, then the socket closes. */
function answerParserError(err: NodeJS.ErrnoException & { reason?: string; rawPacket?: Buffer }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  let p: ReturnType<typeof problem>;
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') p = problem(408, 'the request took too long to arrive');
  else if (err.code === 'HPE_HEADER_OVERFLOW') {
    // A request line that has not ended within the limit is a URL too long; otherwise the headers are.
    const line = err.rawPacket?.indexOf('\r\n') ?? -1;
    p =
      line === -1 || line > 8 * 1024
        ? problem(414, 'the URL is too long')
        : problem(431, 'the request headers are larger than the server accepts (16 KiB)');
  } else {
    p = problem(400, `the request could not be parsed: ${err.reason ?? err.code ?? err.message}`);
  }
  socket.end(problemResponse(p));
}
