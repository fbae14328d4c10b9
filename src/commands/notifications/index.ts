import { Command } from 'commander';
import type { RunState } from '../../cli.js';
import type { Ctx } from '../../context.js';
import { listCommand } from '../resource/list.js';
import { showCommand } from '../resource/show.js';
import { examples, NOTIFICATIONS } from '../shared.js';

export function notificationsCommand(ctx: Ctx, _state: RunState): Command {
  return new Command('notifications')
    .description('Notifications: read-only messages, and who has seen them')
    .addHelpText('after', examples('clinadmin notifications list', 'clinadmin notifications show ntf_queue_1'))
    .addCommand(listCommand(ctx, NOTIFICATIONS))
    .addCommand(showCommand(ctx, NOTIFICATIONS));
}
