import type { Command } from 'commander';
import type { Ctx } from '../context.js';
import { examples, optsOf } from './shared.js';

export function loginCommand(cmd: Command, ctx: Ctx): Command {
  return cmd
    .option('--token <token>', 'the API token (visible in shell history; prefer --token-stdin)')
    .option('--token-stdin', 'read the token from standard input')
    .option('--account <id>', 'the account id the token acts for (used to show what it has seen)')
    .option('--use', 'make this profile the current one (the first profile always is)')
    .addHelpText(
      'after',
      `
Asks for a missing base URL or token when a person is at the terminal (the token prompt is masked).
The global --base-url and --profile options choose where and under which profile to store.
${examples(
  'clinadmin login --base-url http://127.0.0.1:4010 --token-stdin < token.txt',
  'clinadmin login --profile staging --base-url https://staging.example.org --account acc_lab --use',
  'clinadmin login   # at a terminal: asks for both',
)}`,
    )
    .action(async (_o: unknown, cmd: Command) => {
      const { login } = await import('./login-run.js');
      await login(ctx, await optsOf(cmd));
    });
}

export function logoutCommand(cmd: Command, ctx: Ctx): Command {
  return cmd
    .addHelpText('after', examples('clinadmin logout', 'clinadmin logout --profile staging'))
    .action(async (_o: unknown, cmd: Command) => {
      const { logout } = await import('./login-run.js');
      await logout(ctx, await optsOf(cmd));
    });
}

export function whoamiCommand(cmd: Command, ctx: Ctx, state: { exitCode: number }): Command {
  return cmd
    .addHelpText('after', examples('clinadmin whoami', 'clinadmin whoami -o json'))
    .action(async (_o: unknown, cmd: Command) => {
      const { whoami } = await import('./login-run.js');
      state.exitCode = await whoami(ctx, await optsOf(cmd));
    });
}
