import type { Ctx } from '../../context.js';
import { mixed } from '../../core/problems.js';
import { measureSyncSpec } from '../../core/sync/measures-spec.js';
import { prepare } from '../../core/sync/prepare.js';
import { EXIT, UsageError } from '../../errors.js';
import { columnMap } from '../../formats/csv/cells.js';
import { formOf, readRecords } from '../../formats/records.js';
import { chooseFormat, present } from '../../output/present.js';
import { visible } from '../../output/text.js';
import { writeOut } from '../../output/text-out.js';
import type { Opts } from '../shared.js';

export async function lint(
  ctx: Ctx,
  opts: Opts & { test?: string; format?: string; leaveOutRanges?: boolean; column?: string[] },
  files: string[],
): Promise<number> {
  const prep = await prepare(
    await measureSyncSpec(opts.test, { leaveOut: opts.leaveOutRanges }),
    await readRecords(ctx, files, formOf(opts.format), columnMap(opts.column)),
  );
  // Every problem of every file in one pass, in the input's order, as eslint lists them: the errors and
  // the warnings beside them, the first 50 and then how many more.
  const [errors, warnings] = [prep.errorList.count, prep.warningList.count];
  if (errors > 0)
    throw new UsageError(
      `${errors} ${errors === 1 ? 'error' : 'errors'}` +
        `${warnings > 0 ? ` and ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}` : ''} in the input`,
      undefined,
      mixed(prep.errorList, prep.warningList, (w) => `warning: ${w}`),
    );
  for (const w of prep.warnings) ctx.stderr.write(`warning: ${visible(w, true)}\n`);
  // A measure lists its first 50 warnings of a kind (a sheet's rows); the rest are counted.
  const more = warnings - prep.warnings.length;
  if (more > 0) ctx.stderr.write(`warning: … and ${more} more ${more === 1 ? 'warning' : 'warnings'}\n`);
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
        `(${warnings} ${warnings === 1 ? 'warning' : 'warnings'})\n`,
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
  return opts.strict && warnings > 0 ? EXIT.failure : EXIT.ok;
}
