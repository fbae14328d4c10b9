import type { Command } from 'commander';
import type { Ctx } from '../context.js';
import { UsageError } from '../errors.js';
import { writeOut } from '../output/text-out.js';
import { TOPIC_SUMMARIES } from './help/topic-list.js';
import { examples } from './shared.js';

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
      const gen = await import('./completion-scripts.js');
      // This group asks for every group in full (wantsAllGroups), so the root holds the whole tree.
      const root = self.parent!;
      const make = { bash: gen.bashCompletion, zsh: gen.zshCompletion, fish: gen.fishCompletion }[shell];
      if (!make) throw new UsageError(`unknown shell ${shell}`, 'use bash, zsh or fish');
      await writeOut(ctx, make(root, TOPIC_SUMMARIES));
    });
}

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
      const { runCompleteIds } = await import('./completion-run.js');
      await runCompleteIds(ctx, group, Boolean(o.names), cmd);
    });
}
