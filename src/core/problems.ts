// Every problem of a file is counted in one pass, as tsc and eslint report them; the first 50 in the
// file's order are listed, and the rest are a count, so a 100,000-row file with one mistake repeated stays
// readable. import keeps no more than 51 of each kind (sync/run.ts); lint, which holds the whole file
// anyway, keeps them all.

export const MAX_LISTED = 50;

/** How much of a value a problem quotes: enough to find it, never a whole segment of a megabyte. */
const QUOTED = 40;

/** A value of a file as a problem quotes it: in quotes, cut to its first characters (the writer escapes it). */
export const quoted = (text: string): string => `"${text.length > QUOTED ? `${text.slice(0, QUOTED)}…` : text}"`;

/** At most 50 lines, then how many more of `total` there were: `… and 12 more problems`, or `… and 3 more`. */
export function listed(lines: string[], total = lines.length, noun?: 'problem'): string[] {
  if (total <= MAX_LISTED && lines.length === total) return lines;
  const n = total - Math.min(lines.length, MAX_LISTED);
  return [...lines.slice(0, MAX_LISTED), `… and ${n} more${noun ? ` ${noun}${n === 1 ? '' : 's'}` : ''}`];
}

/** A problem found in reading a record (a sheet's cell), where it stands: `file:line:column` is in its text. */
export interface ReadProblem {
  text: string;
  line: number;
  column: number;
}

/** A warning found in reading a record: its place, and the field and words `lint -o json` lists it by. */
export interface ReadWarning extends ReadProblem {
  field: string;
  message: string;
}

/**
 * Adds a record's problem to its first MAX_LISTED by line and column, whatever order they were found in (a
 * row's measure cells are read before its range's); returns 1 when one is counted past them, else 0.
 */
export function keepFirst(kept: ReadProblem[], p: ReadProblem): number {
  return keepFirstBy(kept, p, MAX_LISTED, (a, b) => a.line - b.line || a.column - b.column) ? 1 : 0;
}

/**
 * Adds `p` to `kept`, the first `limit` by `order`: when full, `p` takes the place of the last kept one if it
 * comes before it. True when one (`p` or the one it replaced) was left out.
 */
function keepFirstBy<T>(kept: T[], p: T, limit: number, order: (a: T, b: T) => number): boolean {
  if (kept.length < limit) {
    kept.push(p);
    return false;
  }
  let last = 0;
  for (let i = 1; i < kept.length; i++) if (order(kept[i], kept[last]) > 0) last = i;
  if (kept.length > 0 && order(p, kept[last]) < 0) kept[last] = p;
  return true;
}

/** Where a problem stands in the input, compared element by element: its file's number, line and column. */
export type Place = readonly number[];

const before = (a: Place, b: Place): number => {
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
};

/**
 * Problems that may be found out of the input's order (a sheet's measure is checked once its last row is
 * read; a duplicate once every record is), each counted and kept by its place: the first `limit` of the
 * file's order are kept, whatever order they came in, and listed in it (those at one place as they came).
 */
export class Ranked {
  private kept: { text: string; at: Place; seq: number }[] = [];
  count = 0;
  constructor(private readonly limit = Number.POSITIVE_INFINITY) {}

  push(text: string, at: Place): void {
    keepFirstBy(this.kept, { text, at, seq: this.count++ }, this.limit, (a, b) => this.order(a, b));
  }

  /** Problems counted but not kept (those a record brings past its own first 50). */
  more(n: number): void {
    this.count += n;
  }

  private order(a: { at: Place; seq: number }, b: { at: Place; seq: number }): number {
    return before(a.at, b.at) || a.seq - b.seq;
  }

  /** The kept problems in the input's order, each with its place. */
  entries(): { text: string; at: Place }[] {
    return [...this.kept].sort((a, b) => this.order(a, b));
  }

  /** The kept problems' texts, in the input's order. */
  texts(): string[] {
    return this.entries().map((e) => e.text);
  }
}

/**
 * Errors and warnings as one list in the input's order, as eslint lists them: each warning marked, the
 * first 50 listed and then how many more. `mark` words a warning (`warning: …`).
 */
export function mixed(errors: Ranked, warnings: Ranked, mark: (w: string) => string): string[] {
  const all = [...errors.entries(), ...warnings.entries().map((w) => ({ ...w, text: mark(w.text) }))];
  // A stable sort: at one place, errors before warnings.
  all.sort((a, b) => before(a.at, b.at));
  return listed(
    all.slice(0, MAX_LISTED).map((e) => e.text),
    errors.count + warnings.count,
    'problem',
  );
}
