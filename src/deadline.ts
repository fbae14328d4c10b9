// The time model of one command: its deadline (--timeout) and the time a person spends answering prompts,
// which the deadline does not count. One Clock belongs to one run and travels in its context (ctx.clock),
// so two runs in one process (tests, an embedding program) never share a prompt's time.

/** Each exchange's own bound when no --timeout is given: a long import must not fail at 30 s in all. */
export const EXCHANGE_MS = 30_000;

/** The longest delay setTimeout and AbortSignal.timeout keep: a longer one fires at once, with a warning. */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** A command's --timeout as parsed: `ms` from `from` (performance.now() when its options were parsed). */
export interface DeadlineAt {
  ms: number;
  from: number;
}

/** One command's clock: the time spent at its prompts, which its deadline does not count. */
export class Clock {
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

  /** The command's deadline, every prompt's time added; none without --timeout. */
  deadline(at: DeadlineAt | undefined): Deadline | undefined {
    return at === undefined ? undefined : new Deadline(at, this);
  }
}

/**
 * A command's deadline on its clock: `ms` from its parse, the time at its prompts added (every prompt comes
 * after the parse, so all of it counts).
 */
export class Deadline {
  readonly ms: number;
  private readonly end: number;

  constructor(
    at: DeadlineAt,
    private readonly clock: Clock,
  ) {
    this.ms = at.ms;
    this.end = at.from + at.ms;
  }

  /** Milliseconds left; 0 or less once it has passed. */
  left(): number {
    return this.end + this.clock.promptTime() - performance.now();
  }
}
