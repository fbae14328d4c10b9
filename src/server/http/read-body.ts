import type { IncomingMessage } from 'node:http';
import { describeJsonError, findAmbiguity, lineColumn } from '../../formats/json/json-error.js';
import { HttpProblem, problem } from './problem.js';

// A request's body as the server reads it: JSON checked and bounded, or the rest of a refused one discarded.

/**
 * Reads and discards the rest of a body the server refused before reading it whole (401, 413, 415…),
 * as nginx's lingering close does: a client that sends its whole body before it reads (Python's
 * http.client, curl) then reads the answer, instead of a reset. Bounded: past 2 × --max-body (at
 * least 4 MiB) discarded, 5 s in all or 1 s without a byte, the connection is cut.
 */
export function linger(req: IncomingMessage, maxBytes: number): void {
  let discarded = 0;
  const cut = () => {
    clearTimeout(total);
    clearTimeout(idle);
    req.socket.destroy();
  };
  const total = setTimeout(cut, 5_000);
  let idle = setTimeout(cut, 1_000);
  const done = () => {
    clearTimeout(total);
    clearTimeout(idle);
  };
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    clearTimeout(idle);
    if (discarded > maxBytes) return cut();
    idle = setTimeout(cut, 1_000);
  });
  req.once('end', done);
  req.once('close', done);
  req.resume();
}

/** A client that hung up before its body ended: there is no one to answer, and nothing went wrong here. */
export class ClientGone extends Error {}

/** The body, read with plain events, cheaper per request than an async iterator. Stops reading at the limit. */
function readBody(req: IncomingMessage, maxBody: number, tooLarge: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBody) {
        req.off('data', onData);
        req.pause();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    req.once('error', () => reject(new ClientGone()));
    req.once('close', () => {
      if (!req.complete) reject(new ClientGone());
    });
  });
}

/** The body as JSON, checked; `seen` is given its text once read, before it is checked. */
export async function readJsonBody(
  req: IncomingMessage,
  maxBody: number,
  seen?: (text: string) => void,
): Promise<unknown> {
  const [mediaType, ...params] = (req.headers['content-type'] ?? '').split(';');
  const type = mediaType.trim().toLowerCase();
  if (type === 'application/merge-patch+json') {
    throw new HttpProblem(
      problem(
        415,
        'application/merge-patch+json is not supported (its null semantics are not implemented); ' +
          'send "Content-Type: application/json": fields sent are set, fields left out stay',
      ),
    );
  }
  if (type !== 'application/json') {
    throw new HttpProblem(
      problem(415, `send the body as JSON with "Content-Type: application/json" (got ${type || 'none'})`),
    );
  }
  const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(p)?.[1]).find(Boolean);
  if (charset && !/^utf-?8$/i.test(charset)) {
    throw new HttpProblem(problem(415, `send the body as UTF-8 (got charset=${charset}); JSON is UTF-8`));
  }
  const tooLarge = () => new HttpProblem(problem(413, `the body is larger than the limit of ${maxBody} bytes`));
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBody) throw tooLarge();
  const raw = (await readBody(req, maxBody, tooLarge)).toString('utf8');
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  seen?.(text);
  if (text.trim() === '') throw new HttpProblem(problem(400, 'the body is empty; send a JSON object'));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpProblem(problem(400, `the body is not valid JSON (${describeJsonError(text)})`));
  }
  const ambiguous = findAmbiguity(text, value);
  if (ambiguous) {
    const { line, column } = lineColumn(text, ambiguous.offset);
    throw new HttpProblem(problem(400, `the body is ambiguous: line ${line}, column ${column}: ${ambiguous.message}`));
  }
  return value;
}
