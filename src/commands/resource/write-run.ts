import type { ApiClient } from '../../api/client.js';
import type { Ctx } from '../../context.js';
import { readAgesIn } from '../../core/ages.js';
import { ApiError, UsageError } from '../../errors.js';
import { readBody } from '../../formats/input.js';
import { present } from '../../output/present.js';
import type { FieldFlag, Resource } from '../../resources/index.js';
import { parseWith } from '../../schemas/common.js';
import { type Opts, viewsOf } from '../shared.js';
import { applyFlags } from './fields.js';
import type { WriteSpec } from './write-define.js';

// The pieces create and update run alike: the body from flags and files, the rules, the clinical checks,
// and the answer shown.

/** The body: --file or --data, then each field flag over it. */
export async function commandLineBody(ctx: Ctx, opts: Opts, flags: FieldFlag[]): Promise<Record<string, unknown>> {
  const body = applyFlags(await readBody(ctx, { file: opts.file as string, data: opts.data as string }), opts, flags);
  const errors = readAgesIn(body);
  if (errors.length > 0)
    throw new UsageError(
      `${errors.length === 1 ? 'an age is' : 'ages are'} not in a form clinadmin reads; nothing was sent`,
      undefined,
      errors.map((e) => `${e.path}: ${e.message}`),
    );
  return body;
}

/**
 * Holds the body to the schema, as the server will: a usage error naming each field, nothing sent. With
 * `only`, just those fields' errors count: what the command line gave, checked before a prompt asks the rest.
 */
export function checkBody(
  res: Resource,
  schema: Parameters<typeof parseWith>[0],
  body: Record<string, unknown>,
  only?: Set<string>,
): void {
  const checked = parseWith(schema, body);
  const errors = checked.ok ? [] : checked.errors.filter((e) => !only || only.has(e.path.split(/[.[]/)[0]));
  if (errors.length > 0) {
    throw new UsageError(
      `the ${res.noun} is invalid; nothing was ${only ? 'asked or ' : ''}sent`,
      undefined,
      errors.map((e) => `${e.path}: ${e.message}`),
    );
  }
}

/** The clinical checks: warnings on stderr, or with --strict an error and nothing sent. */
export async function lintBody(ctx: Ctx, res: Resource, w: WriteSpec, opts: Opts, body: Record<string, unknown>) {
  const warnings = (await w.lint?.(body)) ?? [];
  if (warnings.length > 0 && opts.strict) {
    throw new UsageError(
      `the ${res.noun} has ${warnings.length === 1 ? 'a warning' : `${warnings.length} warnings`}, ` +
        'errors with --strict; nothing was sent',
      undefined,
      warnings.map((x) => `${x.field}: ${x.message}`),
    );
  }
  for (const x of warnings) ctx.stderr.write(`warning: ${x.field}: ${x.message}\n`);
}

/** Sends the write and shows the record the server answered with. */
export async function sendAndShow(
  ctx: Ctx,
  res: Resource,
  opts: Opts,
  client: ApiClient,
  account: string | undefined,
  send: () => Promise<unknown>,
): Promise<void> {
  const data = await send().catch(async (err: unknown) => {
    throw res.fromContract ? await withContracts(client, err) : err;
  });
  await present(ctx, data, { ...opts, account, ...(await viewsOf(res)) });
}

/**
 * A record refused for an unknown contract (422) says which contracts the server knows, when it can
 * tell (clinadmin serve answers GET /contracts; a real service may not).
 */
async function withContracts(client: ApiClient, err: unknown): Promise<unknown> {
  if (!(err instanceof ApiError) || err.status !== 422) return err;
  try {
    const known = await client.list<{ id: string }>('/contracts');
    if (known.length === 0) return err;
    const ids = known.map((c) => c.id).join(', ');
    return new ApiError(err.message, err.status, err.details, `the contracts the server knows: ${ids}`);
  } catch {
    return err;
  }
}
