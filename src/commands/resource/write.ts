import { Command, Option } from 'commander';
import type { Ctx } from '../../context.js';
import { flagName, optionKey } from '../../core/fields.js';
import { ApiError, CliError, EXIT, UsageError } from '../../errors.js';
import { writeLines } from '../../output/text-out.js';
import { fieldFlags, type Resource } from '../../resources/index.js';
import { checkFields, collect, enc, optsOf, viewsOf, withClient } from '../shared.js';
import { addRangeVerbs, rangeHint, rangeVerbsOf } from './update-ranges.js';

export interface WriteSpec {
  verb: 'create' | 'update';
  examples: string;
  /** Asks a person at the terminal for what is missing (create only). */
  prompt?: (ctx: Ctx, body: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /** The clinical checks import and lint run; their warnings are errors with --strict. */
  lint?: (body: Record<string, unknown>) => Promise<{ field: string; message: string }[]>;
}

/** create or update of a resource: its flags come from the registry, its rules from the resource's schemas. */
export function writeCommand(ctx: Ctx, spec: Resource, w: WriteSpec): Command {
  const cmd = new Command(w.verb).description(
    w.verb === 'create' ? `Create a ${spec.noun}` : `Update fields of a ${spec.noun}`,
  );
  if (w.verb === 'update') cmd.argument('<id>', `the ${spec.noun}'s id`);
  const flags = fieldFlags(spec);
  const rangeFlags = flags.filter((f) => f.kind === 'ranges' || f.kind === 'panic-ranges');
  for (const f of flags) {
    const option = new Option(f.flags, f.description);
    // Create-only flags, and on update the replace-all range flags, stay known, hidden, so that using one
    // gets a sentence, not "unknown option".
    if (w.verb === 'update' && (!f.update || rangeFlags.includes(f))) option.hideHelp();
    if (f.choices) option.choices(f.choices);
    if (f.kind === 'list' || f.kind === 'ranges' || f.kind === 'panic-ranges') option.argParser(collect);
    cmd.addOption(option);
  }
  if (w.verb === 'update') {
    addRangeVerbs(cmd, rangeFlags);
    cmd
      .option('--dry-run', 'print the field-by-field diff and send nothing')
      .option('-y, --yes', 'replace ranges without asking (needed without a terminal)');
  }
  if (w.lint) cmd.option('--strict', 'treat the clinical warnings (as `measures lint` gives them) as errors');
  cmd
    .option('-f, --file <path>', 'read the whole body from a JSON file (- for stdin); flags override it')
    .option('-d, --data <json>', 'the whole body as JSON, or @FILE; flags override it')
    .addHelpText('after', w.examples)
    .action(async (...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      const id = w.verb === 'update' ? (args[0] as string) : undefined;
      const opts = await optsOf(command);
      checkFields(spec, opts.fields);
      const createOnly =
        w.verb === 'update' ? flags.filter((f) => !f.update && opts[optionKey(f.flags)] !== undefined) : [];
      if (createOnly.length > 0) {
        throw new UsageError(
          createOnly.length === 1
            ? `${flagName(createOnly[0])} sets a create-only field; it cannot be changed by update`
            : `${createOnly.map(flagName).join(', ')} set create-only fields; they cannot be changed by update`,
        );
      }
      const replaceAll = w.verb === 'update' ? rangeFlags.filter((f) => opts[optionKey(f.flags)] !== undefined) : [];
      if (replaceAll.length > 0) {
        throw new UsageError(
          `on update, ${flagName(replaceAll[0])} would replace every range the ${spec.noun} has; nothing was sent`,
          rangeHint(replaceAll[0]),
        );
      }
      const verbs = w.verb === 'update' ? rangeFlags.map((f) => ({ f, v: rangeVerbsOf(opts, f) })) : [];
      const { hasVerbs } = await import('../../core/range-verbs.js');
      const ranging = verbs.filter((x) => hasVerbs(x.v));
      const { readBody } = await import('../../core/input.js');
      const { applyFlags } = await import('../../core/fields.js');
      let body = applyFlags(await readBody(ctx, { file: opts.file, data: opts.data }), opts, flags);
      const missing =
        w.verb === 'create'
          ? flags.filter((f) => f.required && (body[f.field] === undefined || body[f.field] === ''))
          : [];
      if (missing.length > 0 && ctx.isInteractive && w.prompt) {
        // What the command line gave is checked before the first question, not after the last.
        const { parseWith } = await import('../../schemas/common.js');
        const given = new Set(Object.keys(body));
        const checked = parseWith((await spec.schemas!()).create, body);
        const wrong = checked.ok ? [] : checked.errors.filter((e) => given.has(e.path.split(/[.[]/)[0]));
        if (wrong.length > 0) {
          throw new UsageError(
            `the ${spec.noun} is invalid; nothing was asked or sent`,
            undefined,
            wrong.map((e) => `${e.path}: ${e.message}`),
          );
        }
      }
      if (missing.length > 0) {
        if (!ctx.isInteractive || !w.prompt) {
          throw new UsageError(
            `missing required ${missing.map(flagName).join(', ')}; nothing was sent`,
            'give the flags, or a body with --file or --data',
          );
        }
        body = await w.prompt(ctx, body);
      }
      if (w.verb === 'update' && Object.keys(body).length === 0 && ranging.length === 0) {
        throw new UsageError('nothing to update: give at least one field flag, --file or --data');
      }
      const [{ parseWith }, schemas] = await Promise.all([import('../../schemas/common.js'), spec.schemas!()]);
      const check = () => {
        const checked = parseWith(w.verb === 'create' ? schemas.create : schemas.patch, body);
        if (!checked.ok) {
          throw new UsageError(
            `the ${spec.noun} is invalid; nothing was sent`,
            undefined,
            checked.errors.map((e) => `${e.path}: ${e.message}`),
          );
        }
      };
      const lint = async () => {
        const warnings = (await w.lint?.(body)) ?? [];
        if (warnings.length > 0 && opts.strict) {
          throw new UsageError(
            `the ${spec.noun} has ${warnings.length === 1 ? 'a warning' : `${warnings.length} warnings`}, ` +
              'errors with --strict; nothing was sent',
            undefined,
            warnings.map((x) => `${x.field}: ${x.message}`),
          );
        }
        for (const x of warnings) ctx.stderr.write(`warning: ${x.field}: ${x.message}\n`);
      };
      // What can be checked without the server is checked before anything is asked of it; an update of
      // ranges, or a dry run, needs the record as it is first.
      // A whole body (a record from `show -o json`, edited) is compared with the record first.
      const whole = w.verb === 'update' && (opts.file !== undefined || opts.data !== undefined);
      const fetches = w.verb === 'update' && (ranging.length > 0 || Boolean(opts.dryRun) || whole);
      if (!fetches) {
        check();
        await lint();
      }
      await withClient(ctx, opts, async ({ client, settings }) => {
        const path = `${spec.path}/${enc(id ?? '')}`;
        if (fetches) {
          const current = await client.request<Record<string, unknown>>('GET', path);
          if (whole) {
            const { setAside } = await import('./round-trip.js');
            body = setAside(ctx, spec, current, body);
          }
          const { applyRangeVerbs } = await import('../../core/range-verbs.js');
          for (const { f, v } of ranging) {
            const now = Array.isArray(current[f.field]) ? (current[f.field] as never[]) : [];
            body[f.field] = applyRangeVerbs(now, v, flagName(f).slice(2), f.kind === 'panic-ranges');
          }
          check();
          const { diffLines } = await import('../../output/sync.js');
          const lines = diffLines(current, body);
          if (Object.keys(body).length === 0) {
            ctx.stderr.write(`nothing to update: ${spec.noun} ${id} is as given; nothing was sent\n`);
            return;
          }
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
            const { prompter } = await import('../../core/prompts.js');
            if (!(await (await prompter(ctx)).confirm(`Replace the ranges of ${spec.noun} ${id} as shown?`, false)))
              throw new CliError('nothing was changed', EXIT.usage);
          }
        }
        if (fetches) await lint();
        const send = () =>
          w.verb === 'create' ? client.request('POST', spec.path, body) : client.request('PATCH', path, body);
        const data = await send().catch(async (err: unknown) => {
          throw spec.fromContract ? await withContracts(client, err) : err;
        });
        const { present } = await import('../../output/present.js');
        await present(ctx, data, { ...opts, account: settings.account, ...(await viewsOf(spec)) });
      });
    });
  return cmd;
}

/**
 * A coverage refused for an unknown contract (422) says which contracts the server knows, when it can
 * tell (clinadmin serve answers GET /contracts; a real service may not).
 */
async function withContracts(client: import('../../api/client.js').ApiClient, err: unknown): Promise<unknown> {
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
