import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';

const load = createRequire(__filename);

/**
 * The CLI's run() (src/cli.ts) as loaded from the bundle, with the part of its context this folder gives:
 * named here, not imported, so the shipped types hold this folder alone (test/e2e/testing-api.test.ts holds
 * the two alike).
 */
export type Run = (
  argv: string[],
  overrides: {
    stdin: Readable;
    stdout: Writable;
    stderr: Writable;
    env?: Record<string, string | undefined>;
    cwd?: string;
    isInteractive: boolean;
    waitForSignal?: (signals: NodeJS.Signals[]) => { promise: Promise<NodeJS.Signals>; cancel: () => void };
  },
) => Promise<number>;

/** What clinadmin said when a verb failed: its message and hint as the CLI prints them, and its exit code. */
export class ServeError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'ServeError';
  }
}

/** `expectRequests` found another count: the CLI's sentence (near misses included) and the requests that matched. */
export class ExpectationError extends ServeError {
  constructor(
    message: string,
    readonly requests: unknown[],
  ) {
    super(message, 1);
    this.name = 'ExpectationError';
  }
}

/** Where the sandbox verbs go: the server, its admin token, and a config folder nobody made. */
export interface Target {
  url: string;
  token: string;
  configDir: string;
}

function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

/**
 * One `clinadmin sandbox …` verb, run by the CLI's own run() in this process (the built bundle beside this
 * file): each verb does, refuses and says exactly what the command does, at a call's cost, not a process's.
 */
export async function sandbox(target: Target, argv: string[], stdin?: string): Promise<unknown> {
  const cli = load(join(__dirname, 'cli.cjs')) as { run: Run };
  const out = sink();
  const err = sink();
  const code = await cli.run(['sandbox', ...argv, '-o', 'json'], {
    stdin: Readable.from(stdin === undefined ? [] : [stdin]),
    stdout: out.stream,
    stderr: err.stream,
    // Only what the verb needs: never the developer's profile, nor a CLINADMIN_* of the test's environment.
    env: { CLINADMIN_BASE_URL: target.url, CLINADMIN_TOKEN: target.token, CLINADMIN_CONFIG_DIR: target.configDir },
    cwd: process.cwd(),
    isInteractive: false,
  });
  const said = asGiven(err.text().trim(), stdin === undefined ? undefined : 'the state given');
  const data = out.text().trim() === '' ? undefined : JSON.parse(out.text());
  // --expect's mismatch is exit 1 with the requests that did match on stdout; any other failure has no data.
  if (code === 1 && argv.includes('--expect') && Array.isArray(data)) throw new ExpectationError(said, data);
  if (code !== 0) throw new ServeError(said, code);
  return data;
}

/** serve and load read an object from stdin: a sentence about it names what the test gave, not stdin. */
export const asGiven = (said: string, name: string | undefined) =>
  name === undefined ? said : said.replace(/^error: stdin(?=[: ])/, `error: ${name}`);

/** A filter's fields as `sandbox requests` flags, by name (`since` is --since), so a new flag needs no code here. */
export function filterArgs(filter: Record<string, unknown>): string[] {
  const args: string[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    const flag = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    // The body is a JSON value to hold (a string too); a list elsewhere is the flag given once a value.
    if (key === 'body') args.push(flag, JSON.stringify(value));
    else for (const v of Array.isArray(value) ? value : [value]) args.push(flag, String(v));
  }
  return args;
}
