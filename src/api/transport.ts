import type { Pool } from 'undici';
import { LONGEST_TIMER_MS } from '../deadline.js';
import { JsonArraySplitter, type ListSink, parseElements } from '../formats/json/array-stream.js';
import { isRecord } from '../formats/json/record.js';
import type { Headers } from './retry.js';

// One attempt of an exchange through undici's handler interface; retries, traces and errors are the
// client's (client.ts), in one loop for both.

/** The largest answer about one record (or a write) that is read: more is a peer gone wrong. */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;
/** The largest list held whole (a table, YAML, --query, a plan): past it, only the streaming formats go on. */
export const MAX_HELD_LIST_BYTES = 256 * 1024 * 1024;

/** What one attempt needs: the pool, the request headers made once, and the time it has left. */
export interface Exchange {
  pool: Pool;
  headers: { read: Record<string, string>; write: Record<string, string> };
  /** Until the answer's end (or a list's first record), past which it is aborted. */
  ms: number;
  /** A list's longest wait for its next record: a list may take longer than `ms` while records keep coming. */
  gapMs: number;
  /** The command's time left (--timeout), which cuts either sooner; Infinity without one. */
  left: () => number;
}

/** An abort reason that names the bound which passed, so the error a person reads names it. */
const cutBy = (code: 'CLINADMIN_DEADLINE' | 'CLINADMIN_COMMAND_DEADLINE') =>
  Object.assign(new Error('deadline'), { code });

/** A delay a timer keeps: whole milliseconds, at least 1, at most the longest (a longer one fires at once). */
const timerMs = (ms: number) => Math.min(LONGEST_TIMER_MS, Math.max(1, Math.ceil(ms)));

/**
 * An attempt's one AbortSignal: its limit and the command's deadline, whichever passes first. The limit
 * runs `ex.ms` from now; a list re-arms it at each record (`rearm(gapMs)`) and holds it while stdout holds
 * the list back (`hold`). The command's deadline is fixed for the attempt (no prompt runs while a request
 * is in flight). `cut` is called once with the reason, its code naming the bound; `done` disarms both.
 */
function attemptSignal(ex: Exchange, cut: (reason: Error) => void) {
  const limit = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const rearm = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => limit.abort(cutBy('CLINADMIN_DEADLINE')), timerMs(ms));
  };
  const left = ex.left();
  const command = Number.isFinite(left) ? AbortSignal.timeout(timerMs(left)) : undefined;
  const signal = command ? AbortSignal.any([limit.signal, command]) : limit.signal;
  const onAbort = () => {
    clearTimeout(timer);
    cut(signal.reason === limit.signal.reason ? limit.signal.reason : cutBy('CLINADMIN_COMMAND_DEADLINE'));
  };
  signal.addEventListener('abort', onAbort, { once: true });
  rearm(ex.ms);
  return {
    signal,
    rearm,
    hold: () => clearTimeout(timer),
    done: () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * The cut-off of an attempt, before and after it starts: undici hands the means to abort only when the
 * request is written, so one still waiting for a connection (a TLS handshake that never ends, a busy
 * pool) fails at once and is aborted unsent when its turn comes, rather than sent past the deadline.
 */
function starter(fail: (reason: Error) => void) {
  let abort: ((reason: Error) => void) | undefined;
  let early: Error | undefined;
  return {
    cut(reason: Error) {
      if (abort) return abort(reason);
      early = reason;
      fail(reason);
    },
    onRequestStart(controller: { abort: (reason: Error) => void }) {
      if (early) return controller.abort(early);
      abort = (reason: Error) => controller.abort(reason);
    },
  };
}

/**
 * One exchange through undici's handler interface, the body gathered as bytes: its stream-based
 * request() costs about a third more CPU per request, which an import of thousands pays in full.
 */
export function send(
  ex: Exchange,
  method: string,
  path: string,
  body: string | undefined,
): Promise<{ status: number; headers: Headers; text: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let headers: Headers = {};
    const chunks: Buffer[] = [];
    let size = 0;
    const start = starter(reject);
    // A peer that sends a byte a second never trips an idle timeout: the whole answer has a limit.
    const settle = attemptSignal(ex, start.cut).done;
    ex.pool.dispatch(
      { path, method: method as 'GET', headers: body === undefined ? ex.headers.read : ex.headers.write, body },
      {
        onRequestStart: start.onRequestStart,
        onResponseStart(_c, statusCode, h) {
          status = statusCode;
          headers = h as Headers;
        },
        onResponseData(controller, chunk) {
          size += chunk.length;
          if (size > MAX_RECORD_BYTES) {
            controller.abort(Object.assign(new Error('too large'), { code: 'CLINADMIN_TOO_LARGE' }));
            return;
          }
          chunks.push(chunk);
        },
        onResponseEnd() {
          settle();
          resolve({
            status,
            headers,
            text: (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8'),
            bytes: size,
          });
        },
        onResponseError(_c, err) {
          settle();
          reject(err);
        },
      },
    );
  });
}

/**
 * One page of a list through undici's handler interface, each element handed to `sink` as it arrives;
 * an answer that is not an array (an error, a wrapper) comes back whole as `text`.
 */
export function streamOnce(
  ex: Exchange,
  path: string,
  sink: ListSink,
  maxBytes: number,
): Promise<{ status: number; headers: Headers; text?: string; records: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let headers: Headers = {};
    let records = 0;
    let splitter: JsonArraySplitter | undefined;
    const other: Buffer[] = [];
    let size = 0;
    let bytes = 0;
    const fail = (err: Error) => reject(Object.assign(err, { records }));
    const start = starter(fail);
    // The limit is re-armed at each record and held while stdout holds us back: a peer dripping a byte a
    // second inside one element, or between them, is cut off like one dripping a record.
    const cut = attemptSignal(ex, start.cut);
    let paused = false;
    ex.pool.dispatch(
      { path, method: 'GET', headers: ex.headers.read },
      {
        onRequestStart: start.onRequestStart,
        onResponseStart(_c, statusCode, h) {
          status = statusCode;
          headers = h as Headers;
          if (status >= 200 && status < 300) splitter = new JsonArraySplitter();
        },
        onResponseData(controller, chunk) {
          try {
            bytes += chunk.length;
            if (bytes > maxBytes) {
              controller.abort(Object.assign(new Error('too large'), { code: 'CLINADMIN_LIST_TOO_LARGE' }));
              return;
            }
            if (!splitter) {
              size += chunk.length;
              if (size > MAX_RECORD_BYTES) {
                controller.abort(Object.assign(new Error('too large'), { code: 'CLINADMIN_TOO_LARGE' }));
                return;
              }
              other.push(chunk);
              return;
            }
            const elements = splitter.pushBytes(chunk);
            // One element, or a body that is not an array, is held whole until it ends: the cap of one record.
            if (splitter.heldBytes > MAX_RECORD_BYTES) {
              controller.abort(Object.assign(new Error('too large'), { code: 'CLINADMIN_TOO_LARGE' }));
              return;
            }
            const plain = splitter.plain;
            if (elements.length > 0 && !paused) cut.rearm(ex.gapMs);
            // The records of this piece to parse, parsed together at the next raw record or the piece's end.
            let parse: Buffer[] = [];
            // A list that cannot go on ends here: the records handed on before are written first, then it aborts.
            const refuse = (reason: Record<string, unknown>): false => {
              sink.batchEnd();
              controller.abort(Object.assign(new Error(String(reason.code)), reason));
              return false;
            };
            const parsePending = (): boolean => {
              const { records: recs, malformed } = parseElements(parse);
              parse = [];
              // Counted one by one as they are handed on, and the one that was not JSON with them.
              for (const rec of recs) {
                records++;
                // A list of the API holds records: a null or a number there is the server's fault, said as such.
                if (!isRecord(rec)) return refuse({ code: 'CLINADMIN_NOT_RECORD', value: rec });
                sink.record(rec);
              }
              if (!malformed) return true;
              records++;
              return refuse({ code: 'CLINADMIN_MALFORMED' });
            };
            for (let k = 0; k < elements.length; k++) {
              // What the sink knows or takes as bytes it learns in order: the records before are handed on first.
              if (plain[k] && (sink.known || sink.raw) && parse.length > 0 && !parsePending()) return;
              if (plain[k] && sink.known?.(elements[k])) {
                records++;
                continue;
              }
              // A plain record goes on as the bytes it came in, where the sink can take them (-o ndjson).
              if (sink.raw && plain[k]) {
                records++;
                sink.raw(elements[k]);
                continue;
              }
              parse.push(elements[k]);
            }
            if (parse.length > 0 && !parsePending()) return;
            if (!sink.batchEnd()) {
              controller.pause();
              paused = true;
              cut.hold();
              void sink.drained().then(() => {
                paused = false;
                cut.rearm(ex.gapMs);
                controller.resume();
              });
            }
          } catch (err) {
            // A fault of the list's reader (the sink, our own code) is not the network's: it ends the list
            // as itself, neither sent again nor said as a broken connection.
            controller.abort(Object.assign(new Error('reader'), { code: 'CLINADMIN_READER', cause: err }));
          }
        },
        onResponseEnd() {
          cut.done();
          if (!splitter) {
            return resolve({ status, headers, text: Buffer.concat(other).toString('utf8'), records, bytes });
          }
          const end = splitter.end();
          if (end.complete) return resolve({ status, headers, records, bytes });
          if (end.text !== undefined) {
            if (Buffer.byteLength(end.text) > MAX_RECORD_BYTES) {
              return fail(Object.assign(new Error('too large'), { code: 'CLINADMIN_TOO_LARGE' }));
            }
            return resolve({ status, headers, text: end.text, records, bytes });
          }
          fail(Object.assign(new Error('truncated'), { code: 'CLINADMIN_TRUNCATED' }));
        },
        onResponseError(_c, err) {
          cut.done();
          fail(err);
        },
      },
    );
  });
}
