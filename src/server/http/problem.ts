import type { ServerResponse } from 'node:http';
import { recordJson } from '../../formats/json/record-json.js';
import type { FieldError } from '../../schemas/common.js';

/** The one error shape of the server: RFC 9457 problem+json. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldError[];
}

const TITLES: Record<number, [slug: string, title: string]> = {
  400: ['invalid-body', 'Invalid request body'],
  401: ['unauthorized', 'Authentication required'],
  404: ['not-found', 'Not found'],
  405: ['method-not-allowed', 'Method not allowed'],
  408: ['request-timeout', 'Request timeout'],
  413: ['payload-too-large', 'Request body too large'],
  414: ['uri-too-long', 'URI too long'],
  409: ['conflict', 'Conflict'],
  415: ['unsupported-media-type', 'Unsupported media type'],
  431: ['headers-too-large', 'Request header fields too large'],
  422: ['unknown-reference', 'Unknown reference'],
  429: ['too-many-requests', 'Too many requests'],
  500: ['internal', 'Internal server error'],
  502: ['bad-gateway', 'Bad gateway'],
  503: ['unavailable', 'Service unavailable'],
  504: ['gateway-timeout', 'Gateway timeout'],
};

export function problem(status: number, detail: string, errors?: FieldError[]): Problem {
  const [slug, title] = TITLES[status] ?? ['error', 'Error'];
  return {
    type: `urn:clinadmin:problem:${slug}`,
    title,
    status,
    detail,
    // The first hundred: the detail counts them all, and an answer stays small whatever was sent.
    ...(errors && errors.length > 0 ? { errors: errors.slice(0, 100) } : {}),
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  // Lists go through sendList.
  const text = recordJson(body);
  res.writeHead(status, {
    'content-type': status >= 400 ? 'application/problem+json' : 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** About 64 KB a write, so few system calls. */
const SLICE = 65_536;
/** What may wait in a socket's buffer before the list waits for its reader: a slow one holds up 1 MB, no more. */
const BUFFERED = 1024 * 1024;

/**
 * A list written to the socket as it is produced (chunked), a slice at a time, waiting while the reader is
 * over 1 MB behind: the first bytes leave at once, and a long list is never one joined string. The records are a
 * snapshot; each is replaced, never changed in place, so a write during the answer does not tear it.
 */
export async function sendList(res: ServerResponse, records: readonly unknown[]): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  if (res.req.method === 'HEAD') return void res.end();
  let slice = '[';
  for (let i = 0; i < records.length; i++) {
    slice += i === 0 ? recordJson(records[i]) : `,${recordJson(records[i])}`;
    if (slice.length < SLICE) continue;
    res.write(slice);
    slice = '';
    // Waiting at the socket's own mark (16 KB) would cost a turn of the event loop every slice.
    if (res.writableLength >= BUFFERED) await drained(res);
    if (res.destroyed) return;
  }
  res.end(`${slice}]`);
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export function sendProblem(res: ServerResponse, p: Problem, headers: Record<string, string> = {}): void {
  sendJson(res, p.status, p, headers);
}

/**
 * A problem written straight to a socket, for requests Node's HTTP parser refused before any handler
 * ran (bad lengths or chunks, headers or URL too long): every error the server sends is problem+json.
 */
export function problemResponse(p: Problem): string {
  const body = JSON.stringify(p);
  return (
    `HTTP/1.1 ${p.status} ${p.title}\r\ncontent-type: application/problem+json\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  );
}

/** A problem thrown while a request is handled, answered with its status and headers (app.ts). */
export class HttpProblem extends Error {
  constructor(
    readonly problem: Problem,
    readonly headers: Record<string, string> = {},
  ) {
    super(problem.detail);
  }
}
