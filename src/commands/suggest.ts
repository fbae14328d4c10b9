import type { Command, CommanderError } from 'commander';
import { distance, nearest } from '../core/nearest.js';
import { UsageError } from '../errors.js';

export { distance };

// "Did you mean": for field names and profiles, as commander does for commands.

/** The known word within two edits of `word`, for "did you mean". */
export const closest = (word: string, known: string[]) =>
  known.find((k) => distance(word.toLowerCase(), k.toLowerCase()) <= 2);

/**
 * A profile named on the command line or in CLINADMIN_PROFILE must exist: a typo would otherwise act on
 * an empty profile. Only `login` creates one. `default` always exists.
 */
export function checkProfile(name: string, profiles: Record<string, unknown> | undefined): void {
  const known = Object.keys(profiles ?? {});
  if (name === 'default' || known.includes(name)) return;
  const guess = closest(name, known);
  throw new UsageError(
    `no profile named ${name}${guess ? `; did you mean ${guess}?` : ''}`,
    known.length > 0
      ? `the profiles: ${known.join(', ')}; \`clinadmin login --profile ${name}\` creates one`
      : `\`clinadmin login --profile ${name}\` creates one`,
  );
}

/** commander's unknown option, with the nearest long option of the command or one it inherits as a hint. */
export function unknownOption(err: CommanderError, cmd: Command): Error {
  const typed = /unknown option '([^']*)'/.exec(err.message)?.[1];
  if (typed === undefined || !typed.startsWith('--')) return err;
  const flags: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent)
    for (const o of c.createHelp().visibleOptions(c)) if (o.long) flags.push(o.long);
  const guess = nearest(typed.replace(/=.*$/s, ''), flags);
  return new UsageError(
    `unknown option '${typed.slice(0, 60)}'`,
    guess ? `did you mean ${guess}? (see --help)` : 'run the command with --help to see its options and examples',
  );
}
