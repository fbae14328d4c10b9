import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import type { Ctx } from '../context.js';
import { cut, visible } from '../output/text.js';
import { writeLines } from '../output/text-out.js';
import { resourceByGroup } from '../resources/index.js';
import { optsOf } from './shared.js';

/**
 * The characters an id may hold to be offered at TAB: none that a shell gives meaning to ($, `, ;, quotes,
 * spaces, globs) and no control byte. An id with any other is left out, as a server's data is never code.
 */
const COMPLETABLE = /^[A-Za-z0-9._:@+=,%~-]+$/;
const isCompletableId = (id: unknown): id is string => typeof id === 'string' && COMPLETABLE.test(id);

/** What a record is called, for a shell to show beside its id: a measure's or coverage's name, a title. */
const nameOf = (r: { name?: unknown; title?: unknown }) =>
  typeof r.name === 'string' ? r.name : typeof r.title === 'string' ? r.title : '';

/** The hidden id completion: a group's ids (with `names`, each with its name), or nothing when none come. */
export async function runCompleteIds(ctx: Ctx, group: string, names: boolean, cmd: Command): Promise<void> {
  const res = resourceByGroup(group);
  if (!res) return;
  try {
    const { connect, loadClient } = await import('./connect.js');
    // The client's code is loaded before the clock starts: on a busy machine, loading it is not the server's
    // time, and must not leave TAB with nothing.
    await loadClient();
    // 2 s for the server in all, pages included, from now (the client loaded): a shell waits at TAB for
    // every one of them.
    const { client } = await connect(
      { ...ctx, stderr: new PassThrough() },
      { ...(await optsOf(cmd)), timeoutMs: 2000, deadline: { ms: 2000, from: performance.now() }, verbose: false },
    );
    try {
      const records = await client.list<{ id: unknown; name?: unknown; title?: unknown }>(res.path);
      const listed = records.filter((r) => isCompletableId(r.id));
      const lines = names
        ? listed.map((r) => `${r.id}\t${cut(visible(nameOf(r), true), 60)}`)
        : listed.map((r) => r.id as string);
      await writeLines(ctx, lines);
    } finally {
      await client.close();
    }
  } catch {
    // Completion stays silent: a shell must never show an error mid-line.
  }
}
