import type { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { measures } from '../../resources/index.js';
import { createCommand as createOf } from '../resource/create.js';
import { examples } from '../shared.js';

export function createCommand(ctx: Ctx): Command {
  return createOf(ctx, measures, {
    lint: async (body) => (await (await import('../../core/units.js')).measureLinter())(body),
    examples: examples(
      'clinadmin measures create --test tst_bmp --name Potassium --type numeric --unit mEq/L ' +
        '--reference-range "3.5-5.1 age=18-120" --panic-range "2.5-6.5"',
      'clinadmin measures create --file potassium.json --name "Potassium (serum)"',
      'clinadmin measures create   # at a terminal: asks for what is missing',
    ),
    prompt: async (ctx, body) => (await import('./prompt.js')).promptMeasure(ctx, body),
  });
}
