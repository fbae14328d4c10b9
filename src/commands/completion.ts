import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import type { Ctx } from '../context.js';
import { UsageError } from '../errors.js';
import { writeLines, writeOut } from '../output/text-out.js';
import { resourceByGroup } from '../resources/index.js';
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
      await writeOut(ctx, make(root));
    });
}

/**
 * The characters an id may hold to be offered at TAB: none that a shell gives meaning to ($, `, ;, quotes,
 * spaces, globs) and no control byte. An id with any other is left out, as a server's data is never code.
 */
const COMPLETABLE = /^[A-Za-z0-9._:@+=,%~-]+$/;
export const isCompletableId = (id: unknown): id is string => typeof id === 'string' && COMPLETABLE.test(id);

/** Hidden: prints the ids of a group for shell completion; silent when the server does not answer. */
export function completeIdsCommand(cmd: Command, ctx: Ctx): Command {
  return cmd.argument('<group>').action(async (group: string, _o: unknown, cmd: Command) => {
    const spec = resourceByGroup(group);
    if (!spec) return;
    try {
      const { connect } = await import('./connect.js');
      const { client } = await connect(
        { ...ctx, stderr: new PassThrough() },
        { ...(await optsOf(cmd)), timeoutMs: 2000, verbose: false },
      );
      try {
        const records = await client.list<{ id: unknown }>(spec.path);
        const ids = records.map((r) => r.id).filter(isCompletableId);
        await writeLines(ctx, ids as string[]);
      } finally {
        await client.close();
      }
    } catch {
      // Completion stays silent: a shell must never show an error mid-line.
    }
  });
}
