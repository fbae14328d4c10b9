import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Ctx } from '../../context.js';
import { readAgesIn } from '../../core/ages.js';
import { ApiError, CliError, EXIT, UsageError } from '../../errors.js';
import { parseJson } from '../../formats/input.js';
import { diffLines } from '../../output/diff-lines.js';
import { present } from '../../output/present.js';
import { visible } from '../../output/text.js';
import type { Resource } from '../../resources/index.js';
import { parseWith } from '../../schemas/common.js';
import { enc, type Opts, viewsOf, withClient } from '../shared.js';
import { byIdOrName } from './find.js';
import { editsOf } from './round-trip.js';

/** `edit`, its options parsed: the record in the editor, then only what changed is sent. */
export async function runEdit(ctx: Ctx, res: Resource, id: string, opts: Opts): Promise<void> {
  // vi, chosen for the user, needs a person at a terminal: in a pipe or a CI job it would wait forever.
  if (!ctx.env.VISUAL && !ctx.env.EDITOR && !ctx.isInteractive)
    throw new UsageError(
      'edit opens vi, and no one is at a terminal to use it',
      `set EDITOR to a command that edits a file in place, or use \`clinadmin ${res.group} update\``,
    );
  await withClient(ctx, opts, async ({ client, settings }) => {
    // The id, or the exact name (find.ts); the change goes to the id of the record found.
    const current = await byIdOrName(client, res, id, (at) =>
      client.request<Record<string, unknown>>('GET', `${res.path}/${enc(at)}`),
    );
    const path = `${res.path}/${enc(String(current.id ?? id))}`;
    await inEditFile(`${res.noun}-${id.replace(/\W/g, '_')}.json`, async (file, kept) => {
      const body = await editRecord(ctx, res, current, file, kept);
      if (!body) return;
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
      await present(ctx, data, { ...opts, account: settings.account, ...(await viewsOf(res)) });
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
  res: Resource,
  current: Record<string, unknown>,
  file: string,
  kept: string,
): Promise<Record<string, unknown> | undefined> {
  const before = `${JSON.stringify(current, null, 2)}\n`;
  await writeFile(file, before, { mode: 0o600 });
  const editor = ctx.env.VISUAL || ctx.env.EDITOR || 'vi';
  // The editor is another program: it gets no token of ours.
  const { CLINADMIN_TOKEN: _token, CLINADMIN_SERVE_TOKENS: _tokens, ...env } = ctx.env;
  // Ctrl-C belongs to the editor while it runs (as with git); this process then cleans up and says so.
  const interrupt = ctx.waitForSignal(['SIGINT']);
  let ran: ReturnType<typeof spawnSync>;
  try {
    // A person's time in the editor, as at a prompt, is not counted by --timeout.
    ran = await ctx.clock.untimed(async () => openEditor(editor, file, env as NodeJS.ProcessEnv));
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
    const names = removed.map((k) => visible(k, true)).join(', ');
    ctx.stderr.write(`note: ${names} removed in the edit: the API cannot unset a field, so kept\n`);
  }
  const schemas = await res.schemas!();
  const body = editsOf(ctx, res, current, edited as Record<string, unknown>);
  if (Object.keys(body).length === 0) {
    ctx.stderr.write(`no change to send; nothing was sent\n`);
    return undefined;
  }
  // Ages may be written with their unit ("28d"), as in every other input.
  const ages = readAgesIn(body);
  const checked = ages.length > 0 ? { ok: false as const, errors: ages } : parseWith(schemas.patch, body);
  if (!checked.ok) {
    throw new RefusedEdit(
      `the edited ${res.noun} is invalid; nothing was sent`,
      kept,
      checked.errors.map((e) => `${e.path}: ${e.message}`),
    );
  }
  return body;
}

/**
 * Runs the editor as git does (`sh -c '$EDITOR "$@"' $EDITOR FILE`): EDITOR is a shell command, so
 * "code --wait" or "sh -c '…'" works, and the file is its argument, never part of the command's text,
 * so no path (a TMPDIR holding `$(…)`) is ever run. cmd.exe has no "$@": there the path, which Windows
 * allows no `"` in, is quoted.
 */
function openEditor(editor: string, file: string, env: NodeJS.ProcessEnv): ReturnType<typeof spawnSync> {
  if (process.platform === 'win32') return spawnSync(`${editor} "${file}"`, { shell: true, stdio: 'inherit', env });
  return spawnSync('/bin/sh', ['-c', `${editor} "$@"`, editor, file], { stdio: 'inherit', env });
}
