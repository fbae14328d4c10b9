import type { Readable, Writable } from 'node:stream';

// What the test process and its serve child say over the IPC channel: serve's own words, never a shell's.

/** The first message: how to start serve. */
export interface ChildStart {
  /** serve's options after `serve`, as its command line takes them (tokens too: they never reach ps). */
  args: string[];
  /** The admin token among them, which the sandbox verbs send. */
  token: string;
  /** The temporary folder the test process made: the child keeps its data file (unless given) and config there. */
  folder: string;
  /** The data file; undefined for one in `folder`, which goes with the folder. */
  dataFile?: string;
  /** The state to start from as JSON text, read by `serve --load -` from the child's stdin. */
  seed?: string;
}

/** Each later message: one `clinadmin sandbox` verb, its words after `sandbox`, and its stdin. */
export interface VerbCall {
  id: number;
  argv: string[];
  stdin?: string;
}

/** What the verb's run gave: its exit code and what it wrote. */
export interface VerbAnswer {
  id: number;
  code: number;
  stdout: string;
  stderr: string;
}

/** The child's news: the URL once serve listens, why it never did, or a verb's answer. */
export type ChildNews = { ready: string; dataFile: string } | { failed: number; stderr: string } | VerbAnswer;

/**
 * The CLI's run() (src/cli.ts) as the child loads it from the bundle, with the part of its context the child
 * gives: named here, not imported, so the shipped types hold this folder alone (test/e2e/testing-api.test.ts
 * holds the two alike).
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
