import type { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { coverages } from '../../resources/index.js';
import { updateCommand as updateOf } from '../resource/update.js';
import { examples } from '../shared.js';

export function updateCommand(ctx: Ctx): Command {
  return updateOf(ctx, coverages, {
    examples: examples(
      'clinadmin coverages update ID --percentage 80',
      'clinadmin coverages update ID --name "CBC copay 2027" --payment-method prepaid',
    ),
  });
}
