// Every problem of a file is counted in one pass, as tsc and eslint report them; the first 50 are kept
// to list, and the rest are a count, so a 100,000-row file with one mistake repeated stays readable and
// holds no more than 50 messages.

export const MAX_LISTED = 50;

/** At most 50 lines, then how many more of `total` there were: `… and 12 more problems`, or `… and 3 more`. */
export function listed(lines: string[], total = lines.length, noun?: 'problem'): string[] {
  if (total <= MAX_LISTED && lines.length === total) return lines;
  const n = total - Math.min(lines.length, MAX_LISTED);
  return [...lines.slice(0, MAX_LISTED), `… and ${n} more${noun ? ` ${noun}${n === 1 ? '' : 's'}` : ''}`];
}

/** Problems as they are found: each counted, the first 50 kept. */
export class Problems {
  private readonly kept: string[] = [];
  length = 0;

  push(text: string): void {
    if (this.length++ < MAX_LISTED) this.kept.push(text);
  }

  /** The problems to list: the first 50, then how many more. */
  lines(): string[] {
    return listed(this.kept, this.length, 'problem');
  }
}
