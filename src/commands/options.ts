import type { z } from 'zod';
import { UsageError } from '../errors.js';
import { toFieldErrors } from '../schemas/common.js';

const flag = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Turns a failed parse of a command's options into a usage error that names each flag. */
export function zodUsageError(error: z.ZodError, input: unknown): UsageError {
  const errors = toFieldErrors(error, input);
  const details = errors.map((e) => `${flag(e.path.split(/[.[]/)[0])}: ${e.message}`);
  return new UsageError(
    details.length === 1 ? `invalid option ${details[0]}` : 'invalid options',
    undefined,
    details.length === 1 ? [] : details,
  );
}
