// "Did you mean": the known word nearest to one a person wrote (an option, a column, a value, a name).

/** How much of each word a distance compares: a guess is for a short word, and the cost is the product. */
const COMPARED = 64;

/**
 * The edit distance of two short words (of their first 64 characters), for "did you mean": insertions,
 * deletions, substitutions and a swap of two letters side by side, each one edit (optimal string alignment,
 * as commander counts), so `LONIC` is one edit from `LOINC` and `Mael` from `Male`.
 */
export function distance(long: string, other: string): number {
  const a = long.slice(0, COMPARED);
  const b = other.slice(0, COMPARED);
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The known word a person most likely meant by `word`, any case: one that begins with it, three letters at
 * least (`--name` for `--name-like`), else the nearest within a third of its length in edits (two at
 * least, fewer than its letters), else none.
 */
export function nearest(word: string, known: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  if (w === '') return undefined;
  const prefixed = w.length < 3 ? [] : known.filter((k) => k.toLowerCase().startsWith(w));
  if (prefixed.length > 0) return [...prefixed].sort((a, b) => a.length - b.length)[0];
  const best = known.map((k) => ({ k, d: distance(w, k.toLowerCase()) })).sort((a, b) => a.d - b.d)[0];
  // Never a word that shares nothing with it: `X` is no guess at `M`.
  return best && best.d < w.length && best.d <= Math.max(2, Math.floor(w.length / 3)) ? best.k : undefined;
}
