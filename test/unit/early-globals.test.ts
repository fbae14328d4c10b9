// Covers: src/globals.ts
import { describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli.js';
import { earlyGlobals } from '../../src/globals.js';
import { quietCtx } from '../helpers/tree.js';

/** --verbose and --no-color as the whole program parses the line (its runs replaced), refused or not. */
async function programReads(argv: string[]) {
  const program = createProgram(quietCtx(), undefined, false, () => undefined);
  await program.parseAsync(argv, { from: 'user' }).catch(() => undefined);
  const { verbose, color } = program.opts();
  return { verbose: verbose === true, color: color !== false };
}

describe('the global options read before the program runs (bin/ and run())', () => {
  // Each line is read as commander reads it when it runs the program: the oracle is commander itself.
  const lines: [string[], boolean][] = [
    // A short group: -v, then -o with the next word (argv.includes('-v') missed it).
    [['-vo', 'json', 'measures', 'list'], true],
    [['measures', 'list', '-vo', 'json'], true],
    // The value of a global option, not the flag (argv.includes('-v') fired).
    [['measures', 'list', '--fields', '-v'], false],
    [['measures', 'list', '--query', '-v'], false],
    [['measures', 'list', '-ov'], false],
    // After an option of the command, which the program's pass does not know, -v is --verbose; commander
    // then refuses --name for its missing value.
    [['measures', 'create', '--name', '-v'], true],
    [['measures', 'create', '--name=-v'], false],
    [['measures', 'list', '--verbose'], true],
    [['measures', 'list', '--', '-v'], false],
  ];
  it.each(lines)('reads %j as commander does', async (argv, verbose) => {
    expect(earlyGlobals(argv).verbose).toBe(verbose);
    expect((await programReads(argv)).verbose).toBe(verbose);
  });

  it('reads --no-color as commander does, not as a word anywhere', async () => {
    for (const [argv, color] of [
      [['measures', 'list', '--no-color'], false],
      [['measures', 'list', '--fields', '--no-color'], true],
    ] as const) {
      expect(earlyGlobals(argv).color).toBe(color);
      expect((await programReads([...argv])).color).toBe(color);
    }
  });
});
