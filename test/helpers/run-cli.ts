import { PassThrough } from 'node:stream';
import { run } from '../../src/cli.js';
import type { InStream, OutStream } from '../../src/context.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Text on stdin, or keystrokes typed one chunk at a time at a pretend terminal. */
  stdin?: string;
  keys?: string[];
  interactive?: boolean;
  stdoutTTY?: boolean;
  cwd?: string;
}

function sink(tty: boolean): { stream: OutStream; text: () => string } {
  const stream = new PassThrough() as unknown as OutStream;
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString()));
  if (tty) Object.assign(stream, { isTTY: true, columns: 160 });
  return { stream, text: () => text };
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
    const type = async () => {
      for (const k of keys) {
        await new Promise((r) => setTimeout(r, 40));
        (stdin as unknown as PassThrough).write(k);
      }
    };
    void type();
  }
  const code = await run(argv, {
    stdin,
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: { NO_COLOR: '1', ...o.env },
    cwd: o.cwd ?? process.cwd(),
    isInteractive: Boolean(o.interactive),
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
