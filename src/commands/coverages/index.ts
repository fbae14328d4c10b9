import type { Command } from 'commander';
import type { Ctx, RunState } from '../../context.js';
import { coverages } from '../../resources/index.js';
import { deleteCommand } from '../resource/delete.js';
import { editCommand } from '../resource/edit.js';
import { listCommand } from '../resource/list.js';
import { showCommand } from '../resource/show.js';
import { examples } from '../shared.js';
import { applyCommand } from './apply.js';
import { createCommand } from './create.js';
import { updateCommand } from './update.js';

export function coveragesCommand(cmd: Command, ctx: Ctx, state: RunState): Command {
  return cmd
    .addHelpText(
      'after',
      examples(
        'clinadmin coverages list',
        'clinadmin coverages create --contract ctr_acme_2026 --name "CBC copay" --type deduction --amount 15',
      ),
    )
    .addCommand(listCommand(ctx, coverages))
    .addCommand(showCommand(ctx, coverages))
    .addCommand(createCommand(ctx))
    .addCommand(updateCommand(ctx))
    .addCommand(deleteCommand(ctx, coverages, state))
    .addCommand(editCommand(ctx, coverages))
    .addCommand(applyCommand(ctx, state));
}
