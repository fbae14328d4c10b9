import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import type { Ctx } from '../context.js';
import { UsageError } from '../errors.js';
import { cut, visible } from '../output/text.js';
import { writeLines, writeOut } from '../output/text-out.js';
import { resourceByGroup } from '../resources/index.js';
import { TOPIC_SUMMARIES } from './help/topic-list.js';
import { examples, optsOf } from './shared.js';

export function completionCommand(cmd: Command, ctx: Ctx): Command {
  return cmd
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      `${examples(
        'clinadmin completion bash > /etc/bash_completion.d/clinadmin',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: zsh's own ${fpath[1]}, printed as written.
        'clinadmin completion zsh > "${fpath[1]}/_clinadmin"',
        'clinadmin completion fish > ~/.config/fish/completions/clinadmin.fish',
      )}\nIds complete too (clinadmin measures show <TAB>) when the configured server answers.\n`,
    )
    .action(async (shell: string, _o: unknown, self: Command) => {
      const gen = await import('../core/completion.js');
      // This group asks for every group in full (wantsAllGroups), so the root holds the whole tree.
      const root = self.parent!;
      const make = { bash: gen.bashCompletion, zsh: gen.zshCompletion, fish: gen.fishCompletion }[shell];
      if (!make) throw new UsageError(`unknown shell ${shell}`, 'use bash, zsh or fish');
      await writeOut(ctx, make(root, TOPIC_SUMMARIES));
    });
}

/**
 * The characters an id may hold to be offered at TAB: none that a shell gives meaning to ($, `, ;, quotes,
 * spaces, globs) and no control byte. An id with any other is left out, as a server's data is never code.
 */
const COMPLETABLE = /^[A-Za-z0-9._:@+=,%~-]+$/;
export const isCompletableId = (id: unknown): id is string => typeof id === 'string' && COMPLETABLE.test(id);

/** What a record is called, for a shell to show beside its id: a measure's or coverage's name, a title. */
const nameOf = (r: { name?: unknown; title?: unknown }) =>
  typeof r.name === 'string' ? r.name : typeof r.title === 'string' ? r.title : '';

/**
 * Hidden: prints the ids of a group for shell completion, one a line; with --names each as `id<TAB>name`
 * (zsh and fish show the name beside the id), from the same one request. Silent when the server does not
 * answer. The name is a server's text: escaped to one line with no control byte, and cut.
 */
export function completeIdsCommand(cmd: Command, ctx: Ctx): Command {
  return cmd
    .argument('<group>')
    .option('--names', 'each id with its name, tab-separated')
    .action(async (group: string, o: { names?: boolean }, cmd: Command) => {
      const spec = resourceByGroup(group);
      if (!spec) return;
      try {
        const { connect } = await import('./connect.js');
        const { client } = await connect(
          { ...ctx, stderr: new PassThrough() },
          { ...(await optsOf(cmd)), timeoutMs: 2000, verbose: false },
        );
        try {
          const records = await client.list<{ id: unknown; name?: unknown; title?: unknown }>(spec.path);
          const listed = records.filter((r) => isCompletableId(r.id));
          const lines = o.names
            ? listed.map((r) => `${r.id}\t${cut(visible(nameOf(r), true), 60)}`)
            : listed.map((r) => r.id as string);
          await writeLines(ctx, lines);
        } finally {
          await client.close();
        }
      } catch {
        // Completion stays silent: a shell must never show an error mid-line.
      }
    });
}
