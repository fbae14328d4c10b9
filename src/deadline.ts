// The command's deadline (--timeout) and the time a person spends answering prompts, which it does not
// count. One process runs one command, so prompt time is kept here, where the prompter (output/) and the
// client (api/) both reach it without either importing the other.

/** Each exchange's own bound when no --timeout is given: a long import must not fail at 30 s in all. */
export const EXCHANGE_MS = 30_000;

let promptMs = 0;
let open = 0;
let openedAt = 0;

/** Milliseconds spent at prompts so far, an open one included. */
function promptTime(): number {
  return promptMs + (open > 0 ? performance.now() - openedAt : 0);
}

/** Runs a prompt whose time no deadline counts: --timeout bounds waiting on a peer, not on a person. */
export async function untimed<T>(prompt: () => Promise<T>): Promise<T> {
  if (open++ === 0) openedAt = performance.now();
  try {
    return await prompt();
  } finally {
    if (--open === 0) promptMs += performance.now() - openedAt;
  }
}

/** The whole command's deadline: `ms` from its start, every prompt's time added. */
export class Deadline {
  private readonly end: number;
  private readonly prompted: number;

  constructor(readonly ms: number) {
    this.end = performance.now() + ms;
    this.prompted = promptTime();
  }

  /** Milliseconds left; 0 or less once it has passed. */
  left(): number {
    return this.end + (promptTime() - this.prompted) - performance.now();
  }
}
