import { Command } from 'commander';
import type { Ctx } from '../context.js';
import { examples, type Opts, optsOf } from './shared.js';

const KEYS_HELP = 'keys: base-url, token, account';

export function configCommand(cmd: Command, ctx: Ctx): Command {
  const act =
    (name: 'get' | 'set' | 'unset' | 'list' | 'path' | 'useProfile') =>
    async (...args: unknown[]) => {
      const cmd = args[args.length - 1] as Command;
      const actions = (await import('./config-run.js')) as unknown as Record<
        string,
        (ctx: Ctx, opts: Opts, ...a: string[]) => Promise<void>
      >;
      await actions[name](ctx, await optsOf(cmd), ...(args.slice(0, -2) as string[]));
    };
  return cmd
    .addHelpText(
      'after',
      examples(
        'clinadmin config list',
        'clinadmin config set account acc_lab',
        'clinadmin config use-profile staging',
        'clinadmin config path',
      ),
    )
    .addCommand(
      new Command('get')
        .description(`Print one setting of the profile (${KEYS_HELP}); the token only with --show-secret`)
        .argument('<key>')
        .option('--show-secret', 'print the token itself rather than a masked form')
        .addHelpText(
          'after',
          examples('clinadmin config get base-url', 'clinadmin config get token --show-secret | pbcopy'),
        )
        .action(act('get')),
    )
    .addCommand(
      new Command('set')
        .description(`Store one setting in the profile (${KEYS_HELP})`)
        .argument('<key>')
        .argument('<value>', 'the value, or - to read it from standard input (for a token)')
        .addHelpText(
          'after',
          examples(
            'clinadmin config set base-url https://api.example.org',
            'clinadmin --profile staging config set account acc_lab',
            'clinadmin config set token - < token.txt',
          ),
        )
        .action(act('set')),
    )
    .addCommand(
      new Command('unset')
        .description(`Remove one setting from the profile (${KEYS_HELP})`)
        .argument('<key>')
        .addHelpText('after', examples('clinadmin config unset account'))
        .action(act('unset')),
    )
    .addCommand(
      new Command('list')
        .alias('ls')
        .description('List every profile and its settings, tokens masked')
        .addHelpText('after', examples('clinadmin config list', 'clinadmin config list -o json'))
        .action(act('list')),
    )
    .addCommand(
      new Command('path')
        .description('Print the path of the config file')
        .addHelpText('after', examples('clinadmin config path', 'CLINADMIN_CONFIG_DIR=/tmp/ci clinadmin config path'))
        .action(act('path')),
    )
    .addCommand(
      new Command('use-profile')
        .description('Make a profile the one used when --profile and CLINADMIN_PROFILE are not given')
        .argument('<name>')
        .addHelpText('after', examples('clinadmin config use-profile staging'))
        .action(act('useProfile')),
    );
}
