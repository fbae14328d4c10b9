import type { Ctx } from '../context.js';
import { exact } from './terminal.js';
import { layoutWidth } from './text.js';
import { wrapText } from './wrap.js';

// Text that is the command's output but not a record or a list (a script, a document, a line per event,
// a plan): it reaches stdout here, so data leaves only through output/.

/** Writes text that is already shaped for stdout; resolves once stdout takes more (a slow reader). */
export async function writeOut(ctx: Ctx, text: string): Promise<void> {
  if (text !== '' && !ctx.stdout.write(text)) await new Promise((r) => ctx.stdout.once('drain', () => r(undefined)));
}

/** A document whose bytes are data (an export): exact into a file or a pipe, escaped at a terminal. */
export async function writeExact(ctx: Ctx, text: string): Promise<void> {
  const out = exact(ctx.stdout);
  if (text !== '' && !out.write(text)) await new Promise((r) => out.once('drain', () => r(undefined)));
}

/** Lines of output, each ended by a newline; none writes nothing. */
export const writeLines = (ctx: Ctx, lines: readonly string[]): Promise<void> =>
  writeOut(ctx, lines.length === 0 ? '' : `${lines.join('\n')}\n`);

/** Words for a person on stderr: at a terminal, wrapped at spaces to its width, never inside a word nor cut. */
export function say(ctx: Ctx, text: string): void {
  const width = ctx.stderr.isTTY ? layoutWidth(ctx.stderr, ctx.env) : Number.POSITIVE_INFINITY;
  ctx.stderr.write(`${wrapText(text, width)}\n`);
}
