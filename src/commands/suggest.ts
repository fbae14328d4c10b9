import { UsageError } from '../errors.js';

// "Did you mean": for field names and profiles, as commander does for commands.

/** The edit distance of two short words, for "did you mean". */
export function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = next;
    }
  }
  return row[b.length];
}

/** The known word within two edits of `word`, for "did you mean". */
export const closest = (word: string, known: string[]) =>
  known.find((k) => distance(word.toLowerCase(), k.toLowerCase()) <= 2);

/**
 * The known word a person most likely meant by `word`, any case: one that begins with it (`--name` for
 * `--name-like`), else the nearest within a third of its length in edits (two at least), else none.
 */
export function nearest(word: string, known: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  if (w === '') return undefined;
  const prefixed = known.filter((k) => k.toLowerCase().startsWith(w));
  if (prefixed.length > 0) return [...prefixed].sort((a, b) => a.length - b.length)[0];
  const best = known.map((k) => ({ k, d: distance(w, k.toLowerCase()) })).sort((a, b) => a.d - b.d)[0];
  return best && best.d <= Math.max(2, Math.floor(w.length / 3)) ? best.k : undefined;
}

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
