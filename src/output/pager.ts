import type { ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import type { OutStream } from '../context.js';

// Long output at a terminal goes through a pager, as gh and git send it: CLINADMIN_PAGER, else PAGER, else
// `less -FRX` (-F leaves at once when it fits one screen, -R passes our colors, -X leaves it on the screen).
// An empty CLINADMIN_PAGER or PAGER, `cat`, or --no-pager writes straight to the terminal, as git does.

const DEFAULT = 'less -FRX';

/** The pager's command and arguments, or undefined for none; split at spaces (gh splits, not a shell). */
export function pagerCommand(env: Record<string, string | undefined>): string[] | undefined {
  const chosen = env.CLINADMIN_PAGER ?? env.PAGER ?? DEFAULT;
  const words = chosen.trim().split(/\s+/).filter(Boolean);
  return words.length === 0 || words[0] === 'cat' ? undefined : words;
}

export interface Pager {
  /** What the command writes to: the pager's input, with the terminal's width, so tables lay out to it. */
  stream: OutStream;
  /** Ends the pager's input and waits for the person to leave it. */
  close: () => Promise<void>;
}

/**
 * Starts the pager on the terminal `tty` is; undefined when it cannot start (a pager not installed), and
 * the output then goes straight to the terminal. Quitting the pager early lets the rest of the output go
 * nowhere, as `git log | less` does, so the command ends as it would have.
 */
export async function startPager(tty: NodeJS.WriteStream, words: string[]): Promise<Pager | undefined> {
  const { spawn } = await import('node:child_process');
  let child: ChildProcess;
  try {
    child = spawn(words[0], words.slice(1), { stdio: ['pipe', tty, 'inherit'] });
  } catch {
    return undefined;
  }
  const started = await new Promise<boolean>((resolve) => {
    child.once('spawn', () => resolve(true));
    child.once('error', () => resolve(false));
  });
  if (!started) return undefined;
  const input = child.stdin!;
  // The pager gone (q), writes meet a closed pipe: they are let through to nowhere.
  input.on('error', () => undefined);
  const pass = new PassThrough();
  pass.pipe(input);
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  void exited.then(() => {
    pass.unpipe(input);
    pass.resume();
  });
  Object.assign(pass, { isTTY: true, columns: tty.columns, rows: tty.rows });
  return {
    stream: pass as unknown as OutStream,
    close: async () => {
      pass.end();
      await exited;
    },
  };
}
