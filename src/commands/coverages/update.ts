import type { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { coverages } from '../../resources/index.js';
import { writeCommand } from '../resource/write.js';
import { examples } from '../shared.js';

export function updateCommand(ctx: Ctx): Command {
  return writeCommand(ctx, coverages, {
    verb: 'update',
    examples: examples(
      'clinadmin coverages update ID --percentage 80',
      'clinadmin coverages update ID --name "CBC copay 2027" --payment-method prepaid',
    ),
  });
}
