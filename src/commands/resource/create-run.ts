import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { fieldFlags, type Resource } from '../../resources/index.js';
import { checkFields, type Opts, withClient } from '../shared.js';
import { flagName } from './fields.js';
import type { WriteSpec } from './write-define.js';
import { checkBody, commandLineBody, lintBody, sendAndShow } from './write-run.js';

/** create: the body from flags and files, what is missing asked for at a terminal, checked, then POSTed. */
export async function runCreate(ctx: Ctx, res: Resource, w: WriteSpec, opts: Opts): Promise<void> {
  checkFields(res, opts.fields);
  const flags = fieldFlags(res);
  const schemas = await res.schemas!();
  let body = await commandLineBody(ctx, opts, flags);
  const missing = flags.filter((f) => f.required && (body[f.field] === undefined || body[f.field] === ''));
  if (missing.length > 0) {
    if (!ctx.isInteractive || !w.prompt) {
      throw new UsageError(
        `missing required ${missing.map(flagName).join(', ')}; nothing was sent`,
        'give the flags, or a body with --file or --data',
      );
    }
    // What the command line gave is checked before the first question, not after the last.
    checkBody(res, schemas.create, body, new Set(Object.keys(body)));
    body = await w.prompt(ctx, body);
  }
  // What can be checked without the server is checked before anything is asked of it.
  checkBody(res, schemas.create, body);
  await lintBody(ctx, res, w, opts, body);
  await withClient(ctx, opts, ({ client, settings }) =>
    sendAndShow(ctx, res, opts, client, settings.account, () => client.request('POST', res.path, body)),
  );
}
