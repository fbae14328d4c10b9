// Covers: src/output/wrap.ts src/output/text.ts src/cli.ts
import { describe, expect, it } from 'vitest';
import { TOPIC_SUMMARIES } from '../../src/cli.js';
import { displayWidth } from '../../src/output/text.js';
import { runCli } from '../helpers/run-cli.js';
import { commandPaths } from '../helpers/tree.js';

// Help at the reader's width: the terminal's, else COLUMNS, else 80, also in a pipe (`| less`, where a
// line wider than the terminal is broken by the pager, inside words). Every command's help and every
// topic, at 80 and 60 columns and piped: no line wider than that but a single word, and no word broken
// (the words in order are those of the help laid out with no limit).

const pages = [
  ...commandPaths().map((p) => [...p.words, '--help']),
  ...Object.keys(TOPIC_SUMMARIES).map((t) => ['help', t]),
];
// A `#` alone is layout: an example's comment, when it goes on over lines, starts each with `#` again.
const words = (text: string) => text.split(/\s+/).filter((w) => w !== '' && w !== '#');

async function help(argv: string[], env: Record<string, string | undefined>) {
  const r = await runCli(argv, { env: { COLUMNS: undefined, ...env } });
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

function fits(text: string, width: number, what: string) {
  for (const line of text.split('\n')) {
    // A line wider than the width must be one word after its indent: there was nowhere to break it.
    if (displayWidth(line) > width) expect(line.trim(), `${what} at ${width}`).not.toMatch(/ /);
  }
}

describe('help at the width of the reader', () => {
  it('every help, at 80 and 60 columns (COLUMNS) and piped without it (80), fits and breaks no word', async () => {
    for (const argv of pages) {
      const whole = words(await help(argv, { COLUMNS: '100000' }));
      for (const [width, env] of [
        [80, {}],
        [80, { COLUMNS: '80' }],
        [60, { COLUMNS: '60' }],
      ] as const) {
        const text = await help(argv, env);
        fits(text, width, argv.join(' '));
        expect(words(text), `${argv.join(' ')} at ${width}`).toEqual(whole);
      }
    }
  }, 120_000);

  it('a terminal on stdout or, in a pipe, on stderr gives the width before COLUMNS', async () => {
    const { helpWidth } = await import('../../src/output/text.js');
    expect(
      helpWidth(
        [
          { isTTY: true, columns: 72 },
          { isTTY: true, columns: 90 },
        ],
        { COLUMNS: '60' },
      ),
    ).toBe(72);
    expect(helpWidth([{ isTTY: false }, { isTTY: true, columns: 90 }], { COLUMNS: '60' })).toBe(90);
    expect(helpWidth([{ isTTY: false }, { isTTY: false }], { COLUMNS: '60' })).toBe(60);
    expect(helpWidth([{ isTTY: false }, { isTTY: false }], {})).toBe(80);
    expect(helpWidth([{ isTTY: true, columns: 0 }, { isTTY: false }], {})).toBe(80);
  });
});
