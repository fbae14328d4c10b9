import { resolve } from 'node:path';
import type { Ctx } from '../context.js';
import { listed } from '../core/problems.js';
import type { SyncView } from '../core/sync/pipeline.js';
import type { SyncSpec } from '../core/sync/prepare.js';
import { writeFileAtomic } from '../files/atomic.js';
import type { PresentOptions } from './present.js';
import { progressBar } from './progress.js';
import { prompter } from './prompts.js';
import { deletionLines, documentText, recordLine, showNotes, showPlan, showSummary } from './sync.js';
import { visible } from './text.js';

/** The options of import and apply that decide what a person sees. */
type ViewOptions = PresentOptions & { showUnchanged?: boolean; verbose?: boolean; report?: string };

/** Import and apply at a terminal or in a pipe: people's words on stderr, the plan and summary on stdout. */
export function terminalView(ctx: Ctx, o: ViewOptions, spec: SyncSpec): SyncView {
  let bar: ReturnType<typeof progressBar> | undefined;
  return {
    checked: (checker) => showNotes(ctx, checker),
    warning: (text) => ctx.stderr.write(`warning: ${visible(text, true)}\n`),
    planned: (plan, deletions) => showPlan(ctx, o, plan, deletions),
    async confirm(deletions, baseUrl) {
      ctx.stderr.write(`${listed(deletionLines(deletions)).join('\n')}\n`);
      const what = `${deletions.length} ${deletions.length === 1 ? spec.noun : spec.plural}`;
      const scope = spec.scope ? ` of the ${spec.scope}s in the file that it does not list` : '';
      return (await prompter(ctx)).confirm(`Delete ${what}${scope}, on ${baseUrl}?`, false);
    },
    sending(total) {
      bar = ctx.stderr.isTTY && !o.verbose ? progressBar(ctx.stderr, total, spec.plural) : undefined;
    },
    sent(r, done) {
      if (o.verbose) ctx.stderr.write(`${recordLine(r)}\n`);
      bar?.update(done);
    },
    interrupted() {
      bar?.clear();
      ctx.stderr.write('interrupted: finishing requests in flight, sending nothing more\n');
    },
    stopped: () => bar?.clear(),
    // The report file, then the summary: both written from the tally's spool.
    async summary(tally, elapsedMs) {
      if (o.report)
        await writeFileAtomic(resolve(ctx.cwd, o.report), documentText({ ...tally.counts }, tally.records, 'json'));
      await showSummary(ctx, o, spec, tally, elapsedMs);
    },
  };
}
