import type { Command } from 'commander';
import type { Ctx, RunState } from '../../context.js';
import { CliError, EXIT, UsageError } from '../../errors.js';
import { chooseFormat, present } from '../../output/present.js';
import { prompter } from '../../output/prompts.js';
import { writeOut } from '../../output/text-out.js';
import type { Resource } from '../../resources/index.js';
import { enc, optsOf, withClient } from '../shared.js';
import { byIdOrName } from './find.js';

interface Outcome {
  id: string;
  outcome: 'deleted' | 'not-found' | 'failed';
  error?: string;
}

/** `delete`: asked once at a terminal (or --yes), each id deleted, then the counts. */
export async function runDelete(ctx: Ctx, res: Resource, state: RunState, ids: string[], cmd: Command): Promise<void> {
  const opts = await optsOf(cmd);
  await withClient(ctx, opts, async ({ client, settings }) => {
    const target = ids.length === 1 ? `${res.noun} ${ids[0]}` : `${ids.length} ${res.plural} (${ids.join(', ')})`;
    const where = `${client.baseUrl} (profile ${settings.profile})`;
    if (!opts.yes) {
      if (!ctx.isInteractive) {
        throw new UsageError(
          `refusing to delete ${target} without --yes: no terminal to confirm at`,
          'add --yes to delete without asking',
        );
      }
      const ok = await (await prompter(ctx)).confirm(`Delete ${target} on ${where}?`, false);
      if (!ok) throw new CliError('nothing was deleted', EXIT.usage);
    }
    const outcomes: Outcome[] = [];
    for (const id of ids) {
      try {
        // The id, or the exact name (find.ts); several records of that name delete none.
        await byIdOrName(client, res, id, (at) => client.request('DELETE', `${res.path}/${enc(at)}`));
        outcomes.push({ id, outcome: 'deleted' });
        ctx.stderr.write(`deleted ${res.noun} ${id}\n`);
      } catch (err) {
        if (!(err instanceof CliError) || err.exitCode === EXIT.auth || err.exitCode === EXIT.usage) throw err;
        const status = err.exitCode === EXIT.notFound ? 'not-found' : 'failed';
        outcomes.push({ id, outcome: status, error: err.message });
        ctx.stderr.write(`${status === 'not-found' ? 'not found' : 'failed'}: ${res.noun} ${id}: ${err.message}\n`);
      }
    }
    // The shape import and apply report: the counts, then what happened to each record.
    const n = (o: Outcome['outcome']) => outcomes.filter((x) => x.outcome === o).length;
    const summary = { deleted: n('deleted'), notFound: n('not-found'), failed: n('failed'), records: outcomes };
    if (['table', 'wide'].includes(chooseFormat(ctx, opts.output))) {
      await writeOut(ctx, `${summary.deleted} deleted, ${summary.notFound} not found, ${summary.failed} failed\n`);
    } else if (opts.output !== undefined) {
      await present(ctx, summary, { ...opts, fields: undefined });
    }
    const failed = outcomes.filter((o) => o.outcome !== 'deleted');
    if (failed.length > 0)
      state.exitCode = failed.every((o) => o.outcome === 'not-found') ? EXIT.notFound : EXIT.failure;
  });
}
