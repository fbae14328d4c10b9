import type { Ctx, OutStream } from '../context.js';

/** Colors only on a terminal; NO_COLOR and --no-color turn them off, FORCE_COLOR on. */
export function colorEnabled(ctx: Ctx, stream: OutStream, flag: boolean | undefined): boolean {
  if (flag === false) return false;
  if (ctx.env.NO_COLOR !== undefined && ctx.env.NO_COLOR !== '') return false;
  const force = ctx.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  return Boolean(stream.isTTY);
}

export async function theme(enabled: boolean) {
  const { Chalk } = await import('chalk');
  const c = new Chalk({ level: enabled ? 1 : 0 });
  return { dim: c.dim, bold: c.bold, green: c.green, red: c.red, yellow: c.yellow, cyan: c.cyan, inverse: c.inverse };
}
export type Theme = Awaited<ReturnType<typeof theme>>;
