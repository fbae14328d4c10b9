import { Command } from 'commander';
import type { RunState } from '../../cli.js';
import type { Ctx } from '../../context.js';
import { examples } from '../shared.js';
import { listCommand } from './list.js';
import { showCommand } from './show.js';
import { watchCommand } from './watch.js';

export function notificationsCommand(ctx: Ctx, _state: RunState): Command {
  return new Command('notifications')
    .addHelpText(
      'after',
      examples(
        'clinadmin notifications list --unseen',
        'clinadmin notifications show ntf_queue_1',
        'clinadmin notifications watch',
      ),
    )
    .addCommand(listCommand(ctx))
    .addCommand(showCommand(ctx))
    .addCommand(watchCommand(ctx));
}
