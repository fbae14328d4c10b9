import type { Ctx } from '../context.js';
import { visible } from './text.js';

/**
 * Node's own warnings (a TimeoutOverflowWarning, a deprecation in a dependency) go to stderr through the
 * run's writer, escaped and on one line, for as long as the run lasts; the shim (bin/) removes Node's own
 * printer, which would write them raw. Resolves to the function that stops listening.
 */
export function routeWarnings(ctx: Ctx): () => void {
  const onWarning = (w: Error) => ctx.stderr.write(`warning: ${visible(`${w.name}: ${w.message}`, true)}\n`);
  process.on('warning', onWarning);
  return () => process.off('warning', onWarning);
}
