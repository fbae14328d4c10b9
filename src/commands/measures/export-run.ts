import { resolve } from 'node:path';
import type { Ctx } from '../../context.js';
import { writeFileAtomic } from '../../files/atomic.js';
import { catalogText, unwritableTexts } from '../../formats/catalog.js';
import type { ExportFormat } from '../../formats/catalog-formats.js';
import { visible } from '../../output/text.js';
import { writeExact } from '../../output/text-out.js';
import { measures } from '../../resources/index.js';
import { type Opts, withClient } from '../shared.js';

export async function exportMeasures(
  ctx: Ctx,
  opts: Opts & {
    format: ExportFormat;
    criticalAs: 'limits' | 'zones';
    delimiter: ',' | ';';
    out?: string;
    test?: string[];
  },
): Promise<void> {
  const list = await withClient(ctx, opts, ({ client }) => client.list<Record<string, unknown>>(measures.path));
  const tests = opts.test ? new Set(opts.test) : undefined;
  const chosen = tests ? list.filter((m) => tests.has(String(m.test))) : list;
  const isUcum =
    opts.format === 'json' || opts.format === 'csv'
      ? () => false
      : await (await import('../../formats/fhir/ucum.js')).ucumChecker();
  const text = catalogText(chosen, opts.format, isUcum, opts.criticalAs, opts.delimiter);
  for (const where of unwritableTexts(chosen, opts.format))
    ctx.stderr.write(
      `warning: ${visible(where, true)} holds half of a UTF-16 pair, which ${opts.format} (UTF-8) cannot ` +
        'write; written as U+FFFD\n',
    );
  if (opts.out === undefined) {
    await writeExact(ctx, text);
    return;
  }
  const path = resolve(ctx.cwd, opts.out);
  await writeFileAtomic(path, text);
  ctx.stderr.write(
    `wrote ${chosen.length} ${chosen.length === 1 ? 'measure' : 'measures'} (${opts.format}) to ${path}\n`,
  );
}
