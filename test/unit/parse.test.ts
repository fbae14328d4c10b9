// Covers: src/cli.ts src/commands/index.ts src/globals.ts
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli.js';
import { commandPaths, quietCtx } from '../helpers/tree.js';

class Reached extends Error {}

/** What commander hands the action for `argv`: the command's path, its options with the globals, its args. */
async function parse(argv: string[], full: boolean) {
  const program = createProgram(quietCtx(), undefined, full);
  let seen: { path: string[]; opts: Record<string, unknown>; args: unknown[] } | undefined;
  program.hook('preAction', (_root, action: Command) => {
    const path: string[] = [];
    for (let c: Command | null = action; c?.parent; c = c.parent) path.unshift(c.name());
    seen = { path, opts: action.optsWithGlobals(), args: action.processedArgs };
    throw new Reached();
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (!(err instanceof Reached)) return { error: (err as Error).message };
  }
  return seen;
}

const GLOBALS = [
  ['-v', '-o', 'json'],
  ['-vo', 'json'],
  ['--profile', 'lab', '--base-url', 'http://127.0.0.1:9', '--fields', 'id,name', '--timeout', '5', '--no-color'],
  ['--query', '[0]', '--output=csv'],
];

describe('one parser: commander alone reads the command line', () => {
  const leaves = commandPaths().filter((c) => c.words.length > 0 && c.command.commands.length === 0);

  it('finds every command of the tree', () => {
    expect(leaves.map((c) => c.words.join(' '))).toEqual(expect.arrayContaining(['measures list', 'serve', 'help']));
    expect(leaves.length).toBeGreaterThan(25);
  });

  it('parses each command as the full tree does, with global flags before or after it', async () => {
    for (const { words, args } of leaves) {
      for (const globals of GLOBALS) {
        const reference = await parse([...globals, ...words, ...args], true);
        const where = `${words.join(' ')} with ${globals.join(' ')}`;
        expect(reference, where).toMatchObject({ path: words });
        expect(await parse([...globals, ...words, ...args], false), `${where} before`).toEqual(reference);
        expect(await parse([...words, ...args, ...globals], false), `${where} after`).toEqual(reference);
      }
    }
  });

  it('reads combined short flags before the command: -vo json measures list', async () => {
    const r = await parse(['-vo', 'json', 'measures', 'list'], false);
    expect(r).toMatchObject({ path: ['measures', 'list'], opts: { verbose: true, output: 'json' } });
  });
});
