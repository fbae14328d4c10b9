import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** What a hostile server did: every request it saw, with the Authorization header it was sent. */
export interface Seen {
  method: string;
  url: string;
  authorization?: string;
}

export interface Hostile {
  url: string;
  seen: Seen[];
  close: () => Promise<void>;
}

const open: Hostile[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

/**
 * A server on 127.0.0.1, port 0, that answers as `handle` says: a peer we do not control, the oracle for
 * what the CLI must survive. Closed after each test.
 */
export async function hostileServer(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<Hostile> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    handle(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const h: Hostile = {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  open.push(h);
  return h;
}

/** A list of records with these ids, as any server may send them, at every list path. */
export function listOfIds(ids: string[]) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(ids.map((id) => ({ id, name: 'x', test: 't' }))));
  };
}

/**
 * Writes `total` bytes of filler after `head`, as fast as the reader takes them, and never closes
 * what it opened: a list element that never ends, or an object far larger than any record.
 */
export function endless(head: string, total: number) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(head);
    const piece = Buffer.alloc(1024 * 1024, 'a');
    let sent = 0;
    const more = () => {
      while (sent < total && !res.destroyed) {
        sent += piece.length;
        if (!res.write(piece)) return void res.once('drain', more);
      }
      if (!res.destroyed) res.end('"}');
    };
    res.on('error', () => undefined);
    more();
  };
}

/** Ids a server may hold that a shell would run or a terminal would obey, beside two plain ones. */
export const HOSTILE_IDS = [
  'msr_ok1',
  'msr_x$(touch OWNED_SUBST)',
  'msr_x`touch OWNED_TICK`',
  'msr_x;touch OWNED_SEMI',
  'msr_x\ntouch OWNED_NL',
  'msr_x\u001b]0;pwned\u0007\u001b[2J',
  'msr_ok2',
];
