import type { Readable, Writable } from 'node:stream';
import { Clock } from './deadline.js';

export type OutStream = Writable & { isTTY?: boolean; columns?: number };
export type InStream = Readable & { isTTY?: boolean };

/** Where an action leaves its exit code when it finishes without an error (import's partial failure). */
export interface RunState {
  exitCode: number;
}

/** What a command line parsed to: the command's words, its checked options and its arguments. */
export interface Parsed {
  command: string[];
  options: Record<string, unknown>;
  args: unknown[];
}

/** Stands in for every command's run once its options are parsed: gh's runF, for tests of the parse. */
export type RunF = (parsed: Parsed) => void | Promise<void>;

/** Everything a command touches in the outside world arrives here, so a test can build its own. */
export interface Ctx {
  stdin: InStream;
  stdout: OutStream;
  stderr: OutStream;
  env: Record<string, string | undefined>;
  cwd: string;
  /** A person is at the terminal: prompts may be shown. */
  isInteractive: boolean;
  /**
   * Resolves with the name of the first of these signals that arrives. Later ones are absorbed until
   * cancel(), so a second Ctrl-C cannot cut short the summary of what was done.
   */
  waitForSignal: (signals: NodeJS.Signals[]) => { promise: Promise<NodeJS.Signals>; cancel: () => void };
  /** Resolves once everything written to stdout and stderr has left the process. */
  flush?: () => Promise<void>;
  /** This run's clock: its start, its deadline (--timeout) and the time spent at its prompts. */
  clock: Clock;
}

function processSignals(signals: NodeJS.Signals[]) {
  let handler: ((s: NodeJS.Signals) => void) | undefined;
  const promise = new Promise<NodeJS.Signals>((resolve) => {
    handler = (s) => resolve(s);
    for (const s of signals) process.on(s, handler);
  });
  const cancel = () => {
    for (const s of signals) process.off(s, handler!);
  };
  return { promise, cancel };
}

export function defaultContext(overrides: Partial<Ctx> = {}): Ctx {
  const env = overrides.env ?? process.env;
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI !== 'false';
  const stdout = overrides.stdout ?? process.stdout;
  let stderr: OutStream | undefined;
  return {
    // process.stdin and process.stderr are built on first use: building one on a pipe or file loads
    // streams, tty or net, which a run that never reads input or writes a warning need not pay for.
    get stdin() {
      return overrides.stdin ?? process.stdin;
    },
    stdout,
    get stderr() {
      stderr ??= overrides.stderr ?? process.stderr;
      return stderr;
    },
    env,
    cwd: overrides.cwd ?? process.cwd(),
    get isInteractive() {
      // stderr first, so a run with stderr in a pipe or file never builds stdin.
      return overrides.isInteractive ?? (Boolean(this.stderr.isTTY) && !ci && Boolean(this.stdin.isTTY));
    },
    waitForSignal: overrides.waitForSignal ?? processSignals,
    clock: overrides.clock ?? new Clock(),
    // Before the process exits: what was written must be out (a pipe may still hold it).
    flush: () =>
      Promise.all(
        [stdout, ...(stderr ? [stderr] : [])].map((s) => new Promise<void>((resolve) => s.write('', () => resolve()))),
      ).then(() => undefined),
  };
}
