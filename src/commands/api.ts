import type { Command } from 'commander';
import type { Ctx } from '../context.js';
import { UsageError } from '../errors.js';
import { examples } from './shared.js';

const METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT'];

export function apiCommand(cmd: Command, ctx: Ctx): Command {
  return cmd
    .argument('<method>', `HTTP method: ${METHODS.join(', ')}`)
    .argument('<path>', 'path under the base URL, e.g. /diagnostic-measures')
    .option('-d, --data <json>', 'request body as JSON, or @FILE (@- for stdin)')
    .addHelpText(
      'after',
      examples(
        'clinadmin api GET /notifications',
        'clinadmin api PATCH /diagnostic-measures/ID --data \'{"unit":"mmol/L"}\'',
        'clinadmin api POST /insurance-coverages --data @coverage.json',
      ),
    )
    .action(async (method: string, path: string, _o: unknown, cmd: Command) => {
      const m = method.toUpperCase();
      if (!METHODS.includes(m)) throw new UsageError(`unknown method ${method}`, `use one of: ${METHODS.join(', ')}`);
      const { runApi } = await import('./api-run.js');
      await runApi(ctx, m, path, cmd);
    });
}
