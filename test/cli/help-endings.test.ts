// Covers: src/output/wrap.ts src/commands/notifications/browse.ts
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

// Issue 64: the prose at the end of serve's and browse's help was broken by hand at ~105 columns, then wrapped
// again at 80, leaving a short line after each long one. Filled once, each line but a paragraph's last is
// as full as a greedy fill makes it: the next line's first word would not have fitted on it.

const ragged = (text: string, width: number) => {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const [line, next] = [lines[i], lines[i + 1]];
    // Prose: lines that start at the margin, not an option's or an example's indented rows.
    if (!line || !next || /^\s/.test(line) || /^\s/.test(next) || /:$/.test(line)) continue;
    const word = next.split(' ')[0];
    if (line.length + 1 + word.length <= width) out.push(line);
  }
  return out;
};

describe('help at 80 columns', () => {
  for (const argv of [
    ['serve', '--help'],
    ['notifications', 'browse', '--help'],
  ]) {
    it(`${argv.join(' ')} ends in filled paragraphs`, async () => {
      const r = await runCli(argv, { env: { COLUMNS: '80' } });
      expect(r.code).toBe(0);
      for (const l of r.stdout.split('\n')) expect(l.length, l).toBeLessThanOrEqual(80);
      expect(ragged(r.stdout, 80)).toEqual([]);
    });
  }

  it("browse's help leaves out the flags that do nothing there: -o, --fields, --query, --no-pager", async () => {
    const r = await runCli(['notifications', 'browse', '--help'], { env: { COLUMNS: '80' } });
    for (const flag of ['--output', '--fields', '--query', '--no-pager']) expect(r.stdout).not.toContain(flag);
    expect(r.stdout).toContain('--no-color');
    const list = await runCli(['notifications', 'list', '--help'], { env: { COLUMNS: '80' } });
    for (const flag of ['--output', '--fields', '--query', '--no-pager']) expect(list.stdout).toContain(flag);
  });
});
