/** Exit codes, documented in --help, `clinadmin help exit-codes` and docs/reading.md. */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  notFound: 3,
  auth: 4,
  interrupted: 130,
} as const;

/** An error carrying the sentence the user reads, a hint, and the exit code. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
    readonly hint?: string,
    readonly details: string[] = [],
  ) {
    super(message);
  }
}

/** Bad flags or invalid input: nothing was sent. */
export class UsageError extends CliError {
  override name = 'UsageError';
  constructor(message: string, hint?: string, details: string[] = []) {
    super(message, EXIT.usage, hint, details);
  }
}

export class AuthError extends CliError {
  override name = 'AuthError';
  constructor(message: string, hint?: string) {
    super(message, EXIT.auth, hint);
  }
}

export class NotFoundError extends CliError {
  override name = 'NotFoundError';
  constructor(message: string, hint?: string) {
    super(message, EXIT.notFound, hint);
  }
}

/** The API or the network failed; `status` is the HTTP status when there was one. */
export class ApiError extends CliError {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly status?: number,
    details: string[] = [],
    hint?: string,
  ) {
    super(message, EXIT.failure, hint, details);
  }
}

/** The command's --timeout passed (a timeout, so 1 as any other): `records` of a list were written before. */
export class DeadlineError extends ApiError {
  override name = 'DeadlineError';
  constructor(
    readonly seconds: number,
    readonly records = 0,
    /** Whether a request was in flight, its outcome unknown; false when none was begun. */
    readonly inFlight = true,
  ) {
    super(
      `the command did not finish within --timeout ${seconds} s` +
        (records > 0
          ? `; ${records} records of the list were written before it, so what was written is incomplete`
          : ''),
      undefined,
      [],
      'raise --timeout, or leave it out: then each request alone has 30 s',
    );
  }
}

export class InterruptedError extends CliError {
  override name = 'InterruptedError';
  constructor(message = 'interrupted') {
    super(message, EXIT.interrupted);
  }
}

/** The exit codes as help shows them (the program's --help and `clinadmin help exit-codes`). */
export const EXIT_CODES_HELP = `
Exit codes:
  0    success
  1    failure from the API or the network
  2    usage error or invalid input (nothing was sent)
  3    not found
  4    authentication refused or not configured
  130  interrupted`;
