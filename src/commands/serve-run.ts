import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Ctx, RunState } from '../context.js';
import { readLoadAges } from '../core/load-ages.js';
import { LONGEST_TIMER_MS } from '../deadline.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import { type Made, OwnFileError, removeOwnFile } from '../files/own-file.js';
import { parseJson, readText } from '../formats/input.js';
import { writeLines } from '../output/text-out.js';
import { generateToken, parseTokenSpec, type TokenEntry } from '../server/http/auth.js';
import { type Faults, noFaults, parseFailOn, parseLatency } from '../server/http/faults.js';
import { requestLogHeaderName } from '../server/http/request-log.js';
import { clearReadyFile, sameFileAs, writeReadyFile } from '../server/ready-file.js';
import { type RunningServer, startServer } from '../server/start.js';
import { DataFileError } from '../server/store/data-file.js';
import { StoreUnavailableError } from '../server/store/store.js';
import { converted, numeric, parseOwnOptions, wholeNumber, z } from './options.js';

const nonEmpty = z.string().check(z.minLength(1, 'must not be empty'));

/** serve's options, checked once at the top; numbers in words ("must be a whole number from 0 to 65535"). */
const optionsShape = {
  port: wholeNumber(0, 65535),
  host: nonEmpty,
  data: nonEmpty,
  token: z.optional(z.array(z.string())),
  tokenFile: z.optional(nonEmpty),
  events: z.boolean(),
  seed: z.optional(z.boolean()),
  maxBody: wholeNumber(1),
  // Milliseconds, each a timer: at most the longest delay a timer keeps.
  headersTimeout: wholeNumber(100, LONGEST_TIMER_MS),
  requestTimeout: wholeNumber(100, LONGEST_TIMER_MS),
  stopGrace: wholeNumber(0, 86_400),
  latency: z.optional(converted('must be MS or MIN-MAX whole milliseconds, at most 60000', parseLatency)),
  failRate: z.optional(numeric('must be a number from 0 to 1', ({ value }) => (value <= 1 ? value : undefined))),
  rateLimit: z.optional(wholeNumber(1)),
  // The public --journal-* flags bound the request log (the store's journal is another thing): commander names them.
  journalRequests: wholeNumber(0),
  journalBytes: wholeNumber(0),
  recordBodies: z.optional(z.boolean()),
  journalHeader: z.optional(
    z.array(converted('must be a header name, and not one that carries credentials', requestLogHeaderName)),
  ),
  load: z.optional(nonEmpty),
  readyFile: z.optional(nonEmpty),
  keepNotifications: wholeNumber(0),
  failOn: z.optional(
    z.array(converted('must be METHOD:PATH-PATTERN:STATUS with a status from 400 to 599', parseFailOn)),
  ),
};

/** serve's options as the command line gave them, checked. */
export const serveOptions = (raw: Record<string, unknown>) => parseOwnOptions(raw, optionsShape);

/**
 * Runs serve on its checked options; `raw`, as given, names the faults in its log line. The exit code goes
 * to `state`, as a second signal may set it after the run has returned, while the output drains.
 */
export async function serve(
  ctx: Ctx,
  o: ReturnType<typeof serveOptions>,
  raw: Record<string, unknown>,
  state: RunState,
  dataGiven = true,
): Promise<void> {
  if (o.load !== undefined && o.seed) throw new UsageError('--seed and --load both fill the data; give one of them');
  // The file is read and checked before anything starts, so a bad one stops serve with one sentence.
  const load =
    o.load === undefined
      ? undefined
      : await readText(ctx, o.load).then((t) => {
          const raw = parseJson(t.text, t.name);
          readLoadAges(raw, t.name);
          return { raw, name: t.name };
        });
  const fromFile = o.tokenFile === undefined ? [] : await readTokenFile(resolve(ctx.cwd, o.tokenFile));
  const specs =
    o.token || o.tokenFile !== undefined
      ? [...(o.token ?? []), ...fromFile]
      : (ctx.env.CLINADMIN_SERVE_TOKENS ?? '').split(',').filter((s) => s.trim() !== '');
  let tokens: TokenEntry[];
  try {
    tokens = specs.map(parseTokenSpec);
  } catch (err) {
    throw new UsageError((err as Error).message, 'give --token TOKEN[:ACCOUNT[:admin]]');
  }
  const generated = tokens.length === 0;
  // The one who started serve and got the generated token is its admin.
  if (generated) tokens = [{ token: generateToken(), account: 'local-admin', admin: true }];
  const warn = (m: string) => ctx.stderr.write(m.startsWith('error:') ? `${m}\n` : `warning: ${m}\n`);
  // --load without --data starts from a data file of its own, so no ./clinadmin-data.json is replaced; a
  // clean stop removes it (its folder, with any snapshots), as nobody named it.
  const temporary = load && !dataGiven ? await mkdtemp(join(tmpdir(), 'clinadmin-serve-')) : undefined;
  const dataFile = temporary ? join(temporary, 'data.json') : resolve(ctx.cwd, o.data);
  // A ready file of an earlier run goes first: a job waiting on it must not read a stale URL.
  const readyFile = o.readyFile === undefined ? undefined : resolve(ctx.cwd, o.readyFile);
  if (readyFile) {
    // The stop removes the ready file: a name that is one of serve's inputs would go with it.
    const inputs: [string, string][] = [['data file', dataFile]];
    for (const side of ['journal', 'journal.cut', 'journal.old', 'journal.next', 'lock', 'snapshots'])
      inputs.push([`data file's ${side}`, `${dataFile}.${side}`]);
    if (o.load !== undefined && o.load !== '-') inputs.push(['--load file', resolve(ctx.cwd, o.load)]);
    if (o.tokenFile !== undefined) inputs.push(['--token-file', resolve(ctx.cwd, o.tokenFile)]);
    const clash = await sameFileAs(readyFile, inputs);
    if (clash) throw new UsageError(`--ready-file ${readyFile} is the ${clash}: give the ready file a name of its own`);
    try {
      await clearReadyFile(readyFile);
    } catch (err) {
      throw new UsageError(`--ready-file: ${(err as Error).message}`);
    }
  }
  const faults: Faults = { latency: o.latency, failRate: o.failRate, rateLimit: o.rateLimit, failOn: o.failOn ?? [] };
  let server: RunningServer;
  try {
    server = await startServer({
      dataFile,
      host: o.host,
      port: o.port,
      tokens,
      events: o.events,
      seed: Boolean(o.seed),
      maxBody: o.maxBody,
      headersTimeout: o.headersTimeout,
      requestTimeout: o.requestTimeout,
      requestLogMaxRequests: o.journalRequests,
      requestLogMaxBytes: o.journalBytes,
      recordBodies: Boolean(o.recordBodies),
      requestLogHeaders: o.journalHeader,
      keepNotifications: o.keepNotifications,
      runtimeDir: ctx.env.XDG_RUNTIME_DIR,
      load,
      note: (m) => ctx.stderr.write(`${m}\n`),
      faults: noFaults(faults) ? undefined : faults,
      warn,
    });
  } catch (err) {
    if (temporary) await rm(temporary, { recursive: true, force: true });
    if (err instanceof DataFileError || err instanceof OwnFileError) throw new UsageError(err.message);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UsageError(
        `port ${o.port} on ${o.host} is already in use`,
        'choose another with --port, or --port 0 for a free one',
      );
    throw err;
  }
  const signals = ctx.waitForSignal(['SIGINT', 'SIGTERM']);
  await writeLines(ctx, [`clinadmin serve listening on ${server.url} (data: ${dataFile})`]);
  let ready: Made | undefined;
  if (readyFile) {
    try {
      ready = await writeReadyFile(readyFile, { url: server.url, pid: process.pid });
    } catch (err) {
      await server.close(0);
      if (err instanceof OwnFileError) throw new UsageError(`--ready-file: ${err.message}`);
      throw new UsageError(`--ready-file: cannot write ${readyFile}: ${(err as Error).message}`);
    }
  }
  // A CI log then says why answers were slow or failed.
  if (!noFaults(faults)) ctx.stderr.write(`injecting faults: ${describeFaults(raw)}\n`);
  if (generated) {
    // The command shown never carries the token: login asks for it (masked), or reads it from stdin.
    ctx.stderr.write(
      `No --token given, so this server accepts a generated one: ${tokens[0].token}\n` +
        'Point the CLI at it (login asks for the token, so it stays out of shell history and ps):\n' +
        `  clinadmin login --base-url ${server.url}\n` +
        `or, in a script, with the token in a file: clinadmin login --base-url ${server.url} --token-stdin < FILE\n`,
    );
  }
  const signal = await signals.promise;
  // Not ready any more: the file goes at once, so a job does not reach for a server that is stopping.
  // Only the file this serve wrote: another serve may have written its own at the name since.
  if (readyFile && ready) await removeOwnFile(readyFile, ready).catch(() => undefined);
  // A second signal stops at once: every acknowledged write is already in the journal, replayed at start.
  // Its handler is set before the first one's goes and is never removed (a signal handler holds no process
  // open): a second signal at any moment before the exit, even once the data is saved, exits 130, and never
  // finds the default action that would kill the process by the signal.
  const again = ctx.waitForSignal(['SIGINT', 'SIGTERM']);
  signals.cancel();
  const forced = again.promise.then(() => {
    state.exitCode = EXIT.interrupted;
    return true;
  });
  ctx.stderr.write(
    `${signal}: finishing requests in flight (at most ${o.stopGrace} s) and saving ${dataFile}; ` +
      'a second signal stops at once\n',
  );
  try {
    if (await Promise.race([server.close(o.stopGrace * 1000).then(() => false), forced])) {
      ctx.stderr.write('stopped at once; acknowledged writes are in the journal and are replayed at the next start\n');
      return;
    }
  } catch (err) {
    // A stop that could not fold (a full disk) keeps every change in the journal: say so in one line.
    if (err instanceof StoreUnavailableError) throw new CliError(err.message, EXIT.failure);
    throw err;
  }
  if (temporary) {
    await rm(temporary, { recursive: true, force: true });
    ctx.stderr.write('stopped; the data was in a temporary file (--load without --data), now removed\n');
    return;
  }
  // The last line a person or a CI log reads: the data is on disk, and where.
  ctx.stderr.write(`stopped; the data is saved in ${dataFile}\n`);
}

/** `TOKEN[:ACCOUNT[:admin]]` a line; blank lines and # comments are skipped. Refused when others can read it. */
async function readTokenFile(path: string): Promise<string[]> {
  let text: string;
  try {
    if (process.platform !== 'win32') {
      const mode = (await stat(path)).mode & 0o777;
      if (mode & 0o077) {
        throw new UsageError(
          `${path} is readable by others (mode ${mode.toString(8)}); it holds tokens`,
          `run chmod 600 ${path}`,
        );
      }
    }
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read --token-file ${path}: ${(err as Error).message}`);
  }
  const specs = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  if (specs.length === 0) throw new UsageError(`--token-file ${path} holds no token`);
  return specs;
}

function describeFaults(raw: Record<string, unknown>): string {
  const parts = [];
  if (raw.latency !== undefined) parts.push(`--latency ${raw.latency}`);
  if (raw.failRate !== undefined) parts.push(`--fail-rate ${raw.failRate}`);
  if (raw.rateLimit !== undefined) parts.push(`--rate-limit ${raw.rateLimit}`);
  for (const rule of (raw.failOn as string[] | undefined) ?? []) parts.push(`--fail-on ${rule}`);
  return parts.join(' ');
}
