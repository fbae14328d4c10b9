import { Command } from 'commander';
import type { Ctx } from '../context.js';
import { UsageError } from '../errors.js';
import { COVERAGES, examples, MEASURES, NOTIFICATIONS, optsOf } from './shared.js';

export function completionCommand(ctx: Ctx): Command {
  return new Command('completion')
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
    .action(async (shell: string) => {
      const gen = await import('../core/completion.js');
      // The program as run holds only this group in full; completions need every command.
      const { createProgram } = await import('../cli.js');
      const root = createProgram(ctx);
      const make = { bash: gen.bashCompletion, zsh: gen.zshCompletion, fish: gen.fishCompletion }[shell];
      if (!make) throw new UsageError(`unknown shell ${shell}`, 'use bash, zsh or fish');
      ctx.stdout.write(make(root));
    });
}

const SPECS = { measures: MEASURES, coverages: COVERAGES, notifications: NOTIFICATIONS };

/** Hidden: prints the ids of a group for shell completion; silent when the server does not answer. */
export function completeIdsCommand(ctx: Ctx): Command {
  return new Command('__complete').argument('<group>').action(async (group: string, _o: unknown, cmd: Command) => {
    const spec = SPECS[group as keyof typeof SPECS];
    if (!spec) return;
    try {
      const { connect } = await import('../api/connect.js');
      const { PassThrough } = await import('node:stream');
      const { client } = await connect(
        { ...ctx, stderr: new PassThrough() },
        { ...optsOf(cmd), timeout: '2', verbose: false },
      );
      try {
        const records = await client.request<{ id: string }[]>('GET', spec.path);
        ctx.stdout.write(records.map((r) => r.id).join('\n') + (records.length ? '\n' : ''));
      } finally {
        await client.close();
      }
    } catch {
      // Completion stays silent: a shell must never show an error mid-line.
    }
  });
}
