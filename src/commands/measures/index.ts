import type { Command } from 'commander';
import type { Ctx, RunState } from '../../context.js';
import { measures } from '../../resources/index.js';
import { deleteCommand } from '../resource/delete.js';
import { editCommand } from '../resource/edit.js';
import { listCommand } from '../resource/list.js';
import { showCommand } from '../resource/show.js';
import { examples } from '../shared.js';
import { createCommand } from './create.js';
import { evaluateCommand } from './evaluate.js';
import { exportCommand } from './export.js';
import { importCommand } from './import.js';
import { lintCommand } from './lint.js';
import { updateCommand } from './update.js';

export function measuresCommand(cmd: Command, ctx: Ctx, state: RunState): Command {
  return cmd
    .addHelpText(
      'after',
      examples(
        'clinadmin measures list',
        'clinadmin measures show msr_hgb',
        'clinadmin measures create --test tst_bmp --name Sodium --unit mmol/L',
      ),
    )
    .addCommand(listCommand(ctx, measures))
    .addCommand(showCommand(ctx, measures))
    .addCommand(createCommand(ctx))
    .addCommand(updateCommand(ctx))
    .addCommand(deleteCommand(ctx, measures, state))
    .addCommand(editCommand(ctx, measures))
    .addCommand(importCommand(ctx, state))
    .addCommand(exportCommand(ctx))
    .addCommand(lintCommand(ctx, state))
    .addCommand(evaluateCommand(ctx));
}
