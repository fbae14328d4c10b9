import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { CliError, EXIT, UsageError } from '../../errors.js';
import type { Resource } from '../../resources/index.js';
import { enc, examples, optsOf, viewsOf, withClient } from '../shared.js';

/** kubectl edit: the record in $VISUAL or $EDITOR as JSON; only what changed is sent. */
export function editCommand(ctx: Ctx, spec: Resource): Command {
  return new Command('edit')
    .description(`Edit a ${spec.noun} in $VISUAL or $EDITOR and send only what changed`)
    .argument('<id>', `the ${spec.noun}'s id`)
    .addHelpText(
      'after',
      `${examples(`clinadmin ${spec.group} edit ID`, `EDITOR=nano clinadmin ${spec.group} edit ID`)}
The record opens as JSON. Fields the service sets, and fields left as they were, are not sent. An
edit that does not parse, or breaks a rule, is refused with the reason, and the edited file is kept.
`,
    )
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const opts = await optsOf(cmd);
      const [{ mkdtemp, readFile, writeFile }, { tmpdir }, { join }, { spawnSync }] = await Promise.all([
        import('node:fs/promises'),
        import('node:os'),
        import('node:path'),
        import('node:child_process'),
      ]);
      await withClient(ctx, opts, async ({ client, settings }) => {
        const path = `${spec.path}/${enc(id)}`;
        const current = await client.request<Record<string, unknown>>('GET', path);
        const file = join(
          await mkdtemp(join(tmpdir(), 'clinadmin-edit-')),
          `${spec.noun}-${id.replace(/\W/g, '_')}.json`,
        );
        const before = `${JSON.stringify(current, null, 2)}\n`;
        await writeFile(file, before, { mode: 0o600 });
        const editor = ctx.env.VISUAL || ctx.env.EDITOR || 'vi';
        // Through the shell, as git and kubectl do, so that EDITOR="code --wait" works.
        const ran = spawnSync(`${editor} "${file}"`, {
          shell: true,
          stdio: 'inherit',
          env: ctx.env as NodeJS.ProcessEnv,
        });
        if (ran.status !== 0) {
          throw new CliError(
            `the editor (${editor}) exited with ${ran.status ?? ran.signal}; nothing was sent`,
            EXIT.failure,
          );
        }
        const after = await readFile(file, 'utf8');
        if (after === before) {
          ctx.stderr.write(`no change; nothing was sent\n`);
          return;
        }
        const kept = `your edit is kept in ${file}`;
        const { parseJson } = await import('../../core/input.js');
        let edited: unknown;
        try {
          edited = parseJson(after, 'the edited file');
        } catch (err) {
          throw new UsageError(`${(err as Error).message}; nothing was sent`, kept);
        }
        if (edited === null || typeof edited !== 'object' || Array.isArray(edited))
          throw new UsageError(`the edited file must hold one JSON object; nothing was sent`, kept);
        const removed = Object.keys(current).filter((k) => !(k in (edited as object)));
        if (removed.length > 0) {
          ctx.stderr.write(`note: ${removed.join(', ')} removed in the edit: the API cannot unset a field, so kept\n`);
        }
        const [{ setAside }, { parseWith }, schemas, { diffLines }] = await Promise.all([
          import('./round-trip.js'),
          import('../../schemas/common.js'),
          spec.schemas!(),
          import('../../output/sync.js'),
        ]);
        const body = setAside(ctx, spec, current, edited as Record<string, unknown>);
        if (Object.keys(body).length === 0) {
          ctx.stderr.write(`no change to send; nothing was sent\n`);
          return;
        }
        const checked = parseWith(schemas.patch, body);
        if (!checked.ok) {
          throw new UsageError(
            `the edited ${spec.noun} is invalid; nothing was sent`,
            kept,
            checked.errors.map((e) => `${e.path}: ${e.message}`),
          );
        }
        ctx.stderr.write(`~ update ${id}\n${diffLines(current, body).join('\n')}\n`);
        const data = await client.request('PATCH', path, body);
        const { present } = await import('../../output/present.js');
        await present(ctx, data, { ...opts, account: settings.account, ...(await viewsOf(spec)) });
      });
    });
}
