import { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { ApiError, CliError, EXIT, UsageError } from '../../errors.js';
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
edit that does not parse, or breaks a rule, is refused with the reason, and the edited file is kept
(the hint says where); otherwise the file is removed, whether the edit was sent or abandoned.
`,
    )
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const opts = await optsOf(cmd);
      await withClient(ctx, opts, async ({ client, settings }) => {
        const path = `${spec.path}/${enc(id)}`;
        const current = await client.request<Record<string, unknown>>('GET', path);
        await inEditFile(`${spec.noun}-${id.replace(/\W/g, '_')}.json`, async (file, kept) => {
          const body = await editRecord(ctx, spec, current, file, kept);
          if (!body) return;
          const { diffLines } = await import('../../output/sync.js');
          ctx.stderr.write(`~ update ${id}\n${diffLines(current, body).join('\n')}\n`);
          let data: unknown;
          try {
            data = await client.request('PATCH', path, body);
          } catch (err) {
            // The server refused what was written: the edit is kept to mend, as one our rules refused.
            if (err instanceof ApiError && err.status !== undefined && err.status >= 400 && err.status < 500)
              throw new RefusedEdit(err.message, kept, err.details);
            throw err;
          }
          const { present } = await import('../../output/present.js');
          await present(ctx, data, { ...opts, account: settings.account, ...(await viewsOf(spec)) });
        });
      });
    });
}

/** An edit refused for what it says: its file is kept, and the hint names it. */
class RefusedEdit extends UsageError {}

/**
 * Runs `edit` on a file in a private temp folder (mkdtemp, owner-only), removed afterwards, whether the edit
 * was sent, unchanged or abandoned (the editor failed, Ctrl-C), unless the edit was refused.
 */
async function inEditFile(name: string, edit: (file: string, kept: string) => Promise<void>): Promise<void> {
  const [{ mkdtemp, rm }, { tmpdir }, { join }] = await Promise.all([
    import('node:fs/promises'),
    import('node:os'),
    import('node:path'),
  ]);
  const folder = await mkdtemp(join(tmpdir(), 'clinadmin-edit-'));
  const file = join(folder, name);
  let keep = false;
  try {
    await edit(file, `your edit is kept in ${file}`);
  } catch (err) {
    keep = err instanceof RefusedEdit;
    throw err;
  } finally {
    if (!keep) await rm(folder, { recursive: true, force: true });
  }
}

/** Opens the record in the editor; the change to send, or undefined when there is none. */
async function editRecord(
  ctx: Ctx,
  spec: Resource,
  current: Record<string, unknown>,
  file: string,
  kept: string,
): Promise<Record<string, unknown> | undefined> {
  const [{ readFile, writeFile }, { spawnSync }] = await Promise.all([
    import('node:fs/promises'),
    import('node:child_process'),
  ]);
  const before = `${JSON.stringify(current, null, 2)}\n`;
  await writeFile(file, before, { mode: 0o600 });
  const editor = ctx.env.VISUAL || ctx.env.EDITOR || 'vi';
  // The editor is another program: it gets no token of ours.
  const { CLINADMIN_TOKEN: _token, CLINADMIN_SERVE_TOKENS: _tokens, ...env } = ctx.env;
  // Ctrl-C belongs to the editor while it runs (as with git); this process then cleans up and says so.
  const interrupt = ctx.waitForSignal(['SIGINT']);
  let ran: ReturnType<typeof spawnSync>;
  try {
    // Through the shell, as git and kubectl do, so that EDITOR="code --wait" works.
    ran = spawnSync(`${editor} "${file}"`, { shell: true, stdio: 'inherit', env: env as NodeJS.ProcessEnv });
  } finally {
    interrupt.cancel();
  }
  if (ran.status !== 0) {
    throw new CliError(
      `the editor (${editor}) exited with ${ran.status ?? ran.signal}; nothing was sent`,
      EXIT.failure,
    );
  }
  const after = await readFile(file, 'utf8');
  if (after === before) {
    ctx.stderr.write(`no change; nothing was sent\n`);
    return undefined;
  }
  const { parseJson } = await import('../../core/input.js');
  let edited: unknown;
  try {
    edited = parseJson(after, 'the edited file');
  } catch (err) {
    throw new RefusedEdit(`${(err as Error).message}; nothing was sent`, kept);
  }
  if (edited === null || typeof edited !== 'object' || Array.isArray(edited))
    throw new RefusedEdit(`the edited file must hold one JSON object; nothing was sent`, kept);
  const removed = Object.keys(current).filter((k) => !(k in (edited as object)));
  if (removed.length > 0) {
    const { visible } = await import('../../output/text.js');
    const names = removed.map((k) => visible(k, true)).join(', ');
    ctx.stderr.write(`note: ${names} removed in the edit: the API cannot unset a field, so kept\n`);
  }
  const [{ setAside }, { parseWith }, schemas] = await Promise.all([
    import('./round-trip.js'),
    import('../../schemas/common.js'),
    spec.schemas!(),
  ]);
  const body = setAside(ctx, spec, current, edited as Record<string, unknown>);
  if (Object.keys(body).length === 0) {
    ctx.stderr.write(`no change to send; nothing was sent\n`);
    return undefined;
  }
  const checked = parseWith(schemas.patch, body);
  if (!checked.ok) {
    throw new RefusedEdit(
      `the edited ${spec.noun} is invalid; nothing was sent`,
      kept,
      checked.errors.map((e) => `${e.path}: ${e.message}`),
    );
  }
  return body;
}
