import type { Command } from 'commander';
import type { Ctx, RunState } from '../../context.js';
import { examples } from '../shared.js';
import { browseCommand } from './browse.js';
import { listCommand } from './list.js';
import { showCommand } from './show.js';
import { watchCommand } from './watch.js';

export function notificationsCommand(cmd: Command, ctx: Ctx, state: RunState): Command {
  return cmd
    .addHelpText(
      'after',
      examples(
        'clinadmin notifications list --unseen',
        'clinadmin notifications show ntf_queue_1',
        'clinadmin notifications watch',
        'clinadmin notifications browse',
      ),
    )
    .addCommand(listCommand(ctx))
    .addCommand(showCommand(ctx))
    .addCommand(watchCommand(ctx))
    .addCommand(browseCommand(ctx, state));
}
