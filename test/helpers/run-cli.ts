import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { run } from '../../src/cli.js';
import type { InStream, OutStream, Parsed, RunF } from '../../src/context.js';
import { tempDirSync } from './tmp.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Text on stdin, or keystrokes typed one chunk at a time at a pretend terminal. */
  stdin?: string;
  /** Keys to type; a RegExp among them waits for the screen to show it (an answer refused, say). */
  keys?: (string | RegExp)[];
  interactive?: boolean;
  stdoutTTY?: boolean;
  cwd?: string;
  /** Takes the place of the command's run once its options are parsed (gh's runF): see parsedAs. */
  runF?: RunF;
  /** The CLI's entry: the source's unless given (runShipped gives the built bundle's). */
  cli?: typeof run;
}

function sink(tty: boolean): { stream: OutStream; text: () => string; end: () => string } {
  const stream = new PassThrough() as unknown as OutStream;
  let text = '';
  // Decoded as a terminal reads bytes: a character split across two writes is not two broken ones.
  const decoder = new StringDecoder('utf8');
  stream.on('data', (d: Buffer) => (text += decoder.write(d)));
  if (tty) Object.assign(stream, { isTTY: true, columns: 160 });
  // At the end, bytes of a character never completed show as U+FFFD, as a terminal shows them, not as nothing.
  return { stream, text: () => text, end: () => text + decoder.end() };
}

/**
 * inquirer's question prefix, "? ", at a line's start or after an escape sequence (a color, or a cursor move
 * when colors are off, as under CI=true), never the ? inside "\x1b[?25h".
 */
const QUESTION = /(?:^|\n|\x1b\[[0-9;?]*[A-Za-z])\?(?:\x1b\[[0-9;]*m)? /;
const DONE_THEN_QUESTION = /✔[\s\S]*(?:\n|\x1b\[[0-9;?]*[A-Za-z])\?(?:\x1b\[[0-9;]*m)? /;
const escapeRegExp = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The screen once it shows typed text: as typed, or masked with one * a character. */
const echoOf = (k: string) => new RegExp(`${escapeRegExp(k)}|${escapeRegExp('*'.repeat(k.length))}`);

/** Resolves with the text's length once what it gained past `seen` characters matches `wanted`. */
function shown(stream: OutStream, text: () => string, seen: number, wanted: RegExp): Promise<number> {
  const ready = () => wanted.test(text().slice(seen));
  if (ready()) return Promise.resolve(text().length);
  return new Promise((resolve) => {
    const check = () => {
      if (!ready()) return;
      stream.off('data', check);
      // The sink's own 'data' listener ran first, so the text holds this chunk already.
      resolve(text().length);
    };
    stream.on('data', check);
  });
}

/** Runs the CLI in this process, with memory streams, as tests of the command layer. */
export async function runCli(argv: string[], o: RunOptions = {}): Promise<CliResult> {
  const stdout = sink(Boolean(o.stdoutTTY));
  const stderr = sink(Boolean(o.interactive));
  const stdin = new PassThrough() as unknown as InStream;
  if (o.interactive) Object.assign(stdin, { isTTY: true, setRawMode: () => stdin });
  if (o.stdin !== undefined) (stdin as unknown as PassThrough).end(o.stdin);
  else if (!o.keys) (stdin as unknown as PassThrough).end();
  if (o.keys) {
    const keys = [...o.keys];
    // Each key is typed once the program has answered the one before, as a person types into what is on
    // the screen, not on a clock: after Enter, once inquirer has marked that question done (✔) and drawn
    // the next one (?); after text, once it is echoed (or masked); after any other key, once the prompt has
    // redrawn. The first key waits for the first question.
    const type = async () => {
      let seen = 0;
      let next = QUESTION;
      for (const k of keys) {
        if (k instanceof RegExp) {
          next = k;
          continue;
        }
        seen = await shown(stderr.stream, stderr.text, seen, next);
        (stdin as unknown as PassThrough).write(k);
        next = k === '\r' || k === '\n' ? DONE_THEN_QUESTION : /^[\x20-\x7e]+$/.test(k) ? echoOf(k) : /[\s\S]/;
      }
    };
    void type();
  }
  const code = await (o.cli ?? run)(
    argv,
    {
      stdin,
      stdout: stdout.stream,
      stderr: stderr.stream,
      // A config folder of this run's own unless the test gives one: never the developer's ~/.config.
      env: { NO_COLOR: '1', CLINADMIN_CONFIG_DIR: tempDirSync('clinadmin-config-'), ...o.env },
      cwd: o.cwd ?? process.cwd(),
      isInteractive: Boolean(o.interactive),
    },
    o.runF,
  );
  return { code, stdout: stdout.end(), stderr: stderr.end() };
}

/**
 * What a command line parses to, with no server and no process: the command's words, its checked options
 * and its arguments, as its run would be handed them; or, for a refused line, the exit code and stderr.
 */
export async function parsedAs(argv: string[], o: RunOptions = {}): Promise<CliResult & { parsed?: Parsed }> {
  let parsed: Parsed | undefined;
  const r = await runCli(argv, {
    env: { CLINADMIN_BASE_URL: 'http://127.0.0.1:9', CLINADMIN_TOKEN: 't' },
    ...o,
    runF: (p) => {
      parsed = p;
    },
  });
  return { ...r, parsed };
}
