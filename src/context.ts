import type { Readable, Writable } from 'node:stream';

export type OutStream = Writable & { isTTY?: boolean; columns?: number };
export type InStream = Readable & { isTTY?: boolean };

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
}

export function processSignals(signals: NodeJS.Signals[]) {
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
  const stderr = overrides.stderr ?? process.stderr;
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI !== 'false';
  return {
    // process.stdin is built on first use: building it loads fs streams or tty and net (~1-2 ms).
    get stdin() {
      return overrides.stdin ?? process.stdin;
    },
    stdout: overrides.stdout ?? process.stdout,
    stderr,
    env,
    cwd: overrides.cwd ?? process.cwd(),
    get isInteractive() {
      // stderr first, so a run with stderr in a pipe or file never builds stdin.
      return overrides.isInteractive ?? (Boolean(stderr.isTTY) && !ci && Boolean(this.stdin.isTTY));
    },
    waitForSignal: overrides.waitForSignal ?? processSignals,
  };
}
