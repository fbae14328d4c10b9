import type { Ctx } from '../../context.js';
import { readRecords } from '../../core/records.js';
import { prepare } from '../../core/sync/prepare.js';
import { EXIT, UsageError } from '../../errors.js';
import type { Opts } from '../shared.js';
import { measureSyncSpec } from './sync.js';

export async function lint(ctx: Ctx, opts: Opts, files: string[]): Promise<number> {
  const prep = prepare(await measureSyncSpec(), await readRecords(ctx, files));
  for (const w of prep.warnings) ctx.stderr.write(`warning: ${w}\n`);
  if (prep.errors.length > 0)
    throw new UsageError(
      `${prep.errors.length} ${prep.errors.length === 1 ? 'error' : 'errors'} in the input`,
      undefined,
      prep.errors,
    );
  ctx.stderr.write(
    `${prep.records.length} measures checked: ${prep.warnings.length} ` +
      `${prep.warnings.length === 1 ? 'warning' : 'warnings'}\n`,
  );
  return opts.strict && prep.warnings.length > 0 ? EXIT.failure : EXIT.ok;
}
