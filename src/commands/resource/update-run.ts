import type { Ctx } from '../../context.js';
import { applyRangeVerbs, hasVerbs } from '../../core/range-verbs.js';
import { CliError, EXIT, UsageError } from '../../errors.js';
import { diffLines } from '../../output/diff-lines.js';
import { prompter } from '../../output/prompts.js';
import { visible } from '../../output/text.js';
import { writeLines } from '../../output/text-out.js';
import { fieldFlags, type Resource } from '../../resources/index.js';
import { checkFields, enc, type Opts, withClient } from '../shared.js';
import { flagName, optionKey } from './fields.js';
import { byIdOrName } from './find.js';
import { editsOf } from './round-trip.js';
import { rangeHint, rangeVerbsOf } from './update-ranges.js';
import { isRangeFlag, type WriteSpec } from './write-define.js';
import { checkBody, commandLineBody, lintBody, sendAndShow } from './write-run.js';

/**
 * update: the fields given, PATCHed. Ranges change one at a time against the record as it is; a whole
 * body (a record from `show -o json`, edited) is compared with the record first; --dry-run shows the diff.
 */
export async function runUpdate(ctx: Ctx, res: Resource, w: WriteSpec, id: string, opts: Opts): Promise<void> {
  checkFields(res, opts.fields);
  const flags = fieldFlags(res);
  const rangeFlags = flags.filter(isRangeFlag);
  const given = (f: (typeof flags)[number]) => opts[optionKey(f.flags)] !== undefined;
  const createOnly = flags.filter((f) => !f.update && given(f));
  if (createOnly.length > 0) {
    throw new UsageError(
      createOnly.length === 1
        ? `${flagName(createOnly[0])} sets a create-only field; it cannot be changed by update`
        : `${createOnly.map(flagName).join(', ')} set create-only fields; they cannot be changed by update`,
    );
  }
  const replaceAll = rangeFlags.filter(given);
  if (replaceAll.length > 0) {
    throw new UsageError(
      `on update, ${flagName(replaceAll[0])} would replace every range the ${res.noun} has; nothing was sent`,
      rangeHint(replaceAll[0]),
    );
  }
  const ranging = rangeFlags.map((f) => ({ f, v: rangeVerbsOf(opts, f) })).filter((x) => hasVerbs(x.v));
  let body = await commandLineBody(ctx, opts, flags);
  if (Object.keys(body).length === 0 && ranging.length === 0) {
    throw new UsageError('nothing to update: give at least one field flag, --file or --data');
  }
  const schemas = await res.schemas!();
  const whole = opts.file !== undefined || opts.data !== undefined;
  const fetches = ranging.length > 0 || Boolean(opts.dryRun) || whole;
  // What can be checked without the server is checked before anything is asked of it; ranges, a dry
  // run and a whole body need the record as it is first.
  if (!fetches) {
    checkBody(res, schemas.patch, body);
    await lintBody(ctx, res, w, opts, body);
  }
  await withClient(ctx, opts, async ({ client, settings }) => {
    // The id, or a name (find.ts): with a fetch first, the record it finds gives the id the change goes to.
    let path = `${res.path}/${enc(id)}`;
    if (fetches) {
      const current = await byIdOrName(client, res, id, (at) =>
        client.request<Record<string, unknown>>('GET', `${res.path}/${enc(at)}`),
      );
      path = `${res.path}/${enc(String(current.id ?? id))}`;
      if (whole) body = editsOf(ctx, res, current, body);
      const note = (text: string) => ctx.stderr.write(`warning: ${visible(text, true)}\n`);
      for (const { f, v } of ranging) {
        const now = Array.isArray(current[f.field]) ? (current[f.field] as never[]) : [];
        body[f.field] = applyRangeVerbs(now, v, flagName(f).slice(2), f.kind === 'panic-ranges', note);
      }
      checkBody(res, schemas.patch, body);
      const lines = diffLines(current, body);
      if (Object.keys(body).length === 0) {
        ctx.stderr.write(`nothing to update: ${res.noun} ${id} is as given; nothing was sent\n`);
        return;
      }
      // The clinical checks before a dry run's diff or a confirmation: what the write would say, said first.
      await lintBody(ctx, res, w, opts, body);
      if (opts.dryRun) {
        await writeLines(ctx, [
          ...(lines.length > 0 ? [`~ update ${id}`, ...lines] : []),
          `dry run: ${lines.length === 0 ? 'no change' : 'the changes above'}; nothing was sent`,
        ]);
        return;
      }
      if (ranging.some((x) => x.v.replace !== undefined) && !opts.yes) {
        if (!ctx.isInteractive) {
          throw new UsageError(
            'replacing every range needs --yes without a terminal to confirm at; nothing was sent',
            'check the diff first with --dry-run',
          );
        }
        ctx.stderr.write(`${lines.join('\n')}\n`);
        if (!(await (await prompter(ctx)).confirm(`Replace the ranges of ${res.noun} ${id} as shown?`, false)))
          throw new CliError('nothing was changed', EXIT.usage);
      }
    }
    await sendAndShow(ctx, res, opts, client, settings.account, () =>
      fetches
        ? client.request('PATCH', path, body)
        : byIdOrName(client, res, id, (at) => client.request('PATCH', `${res.path}/${enc(at)}`, body)),
    );
  });
}
