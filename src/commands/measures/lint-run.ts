import type { Ctx } from '../../context.js';
import { listed } from '../../core/problems.js';
import { formOf, readRecords } from '../../core/records.js';
import { prepare } from '../../core/sync/prepare.js';
import { EXIT, UsageError } from '../../errors.js';
import { chooseFormat, present } from '../../output/present.js';
import { visible } from '../../output/text.js';
import { writeOut } from '../../output/text-out.js';
import type { Opts } from '../shared.js';
import { measureSyncSpec } from './sync.js';

export async function lint(
  ctx: Ctx,
  opts: Opts & { test?: string; format?: string },
  files: string[],
): Promise<number> {
  const prep = await prepare(await measureSyncSpec(opts.test), await readRecords(ctx, files, formOf(opts.format)));
  for (const w of prep.warnings) ctx.stderr.write(`warning: ${visible(w, true)}\n`);
  // Every problem of every record, found in one pass; the first 50 listed, then how many more.
  if (prep.errors.length > 0)
    throw new UsageError(
      `${prep.errors.length} ${prep.errors.length === 1 ? 'error' : 'errors'} in the input`,
      undefined,
      listed(prep.errors, prep.errors.length, 'problem'),
    );
  // The shape import and apply report: the counts, then each record and what was found in it.
  const records = prep.records.map((r) => ({
    source: r.src.source,
    position: r.src.position,
    name: r.name,
    outcome: r.warnings.length > 0 ? 'warnings' : 'clean',
    ...(r.warnings.length > 0 ? { warnings: r.warnings.map((w) => `${w.field}: ${w.message}`) } : {}),
  }));
  const withWarnings = records.filter((r) => r.outcome === 'warnings').length;
  if (['table', 'wide'].includes(chooseFormat(ctx, opts.output))) {
    await writeOut(
      ctx,
      `${records.length} checked, ${records.length - withWarnings} clean, ${withWarnings} with warnings ` +
        `(${prep.warnings.length} ${prep.warnings.length === 1 ? 'warning' : 'warnings'})\n`,
    );
  } else {
    await present(
      ctx,
      { checked: records.length, clean: records.length - withWarnings, withWarnings, records },
      {
        ...opts,
        fields: undefined,
      },
    );
  }
  return opts.strict && prep.warnings.length > 0 ? EXIT.failure : EXIT.ok;
}
