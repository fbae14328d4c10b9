// The time model of one command: its deadline (--timeout) and the time a person spends answering prompts,
// which the deadline does not count. One Clock belongs to one run and travels in its context (ctx.clock),
// so two runs in one process (tests, an embedding program) never share a prompt's time.

/** Each exchange's own bound when no --timeout is given: a long import must not fail at 30 s in all. */
export const EXCHANGE_MS = 30_000;

/** The longest delay setTimeout and AbortSignal.timeout keep: a longer one fires at once, with a warning. */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** One command's clock: when it started, and the time spent at its prompts. */
export class Clock {
  /** When the command started (performance.now()): its deadline counts from here. */
  readonly startedAt = performance.now();
  private promptMs = 0;
  private open = 0;
  private openedAt = 0;

  /** Milliseconds spent at prompts so far, an open one included. */
  promptTime(): number {
    return this.promptMs + (this.open > 0 ? performance.now() - this.openedAt : 0);
  }

  /** Runs a prompt whose time no deadline counts: --timeout bounds waiting on a peer, not on a person. */
  async untimed<T>(prompt: () => Promise<T>): Promise<T> {
    if (this.open++ === 0) this.openedAt = performance.now();
    try {
      return await prompt();
    } finally {
      if (--this.open === 0) this.promptMs += performance.now() - this.openedAt;
    }
  }

  /** The command's deadline: `ms` from its start, every prompt's time added; none without `ms`. */
  deadline(ms: number | undefined): Deadline | undefined {
    return ms === undefined ? undefined : new Deadline(ms, this);
  }
}

/** A command's deadline: `ms` from its clock's start, the time at its prompts added. */
export class Deadline {
  constructor(
    readonly ms: number,
    private readonly clock: Clock,
  ) {}

  /** Milliseconds left; 0 or less once it has passed. */
  left(): number {
    return this.clock.startedAt + this.ms + this.clock.promptTime() - performance.now();
  }
}
