import type { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { writeCommand } from '../resource/write.js';
import { examples, MEASURES } from '../shared.js';
import { MEASURE_FLAGS } from './fields.js';

export function createCommand(ctx: Ctx): Command {
  return writeCommand(ctx, MEASURES, {
    verb: 'create',
    flags: MEASURE_FLAGS,
    examples: examples(
      'clinadmin measures create --test tst_bmp --name Potassium --type numeric --unit mEq/L ' +
        '--reference-range "3.5-5.1 age=18-120"',
      'clinadmin measures create --file potassium.json --name "Potassium (serum)"',
      'clinadmin measures create   # at a terminal: asks for what is missing',
    ),
    validate: async (body) => {
      const [{ parseWith }, { measureCreateSchema }] = await Promise.all([
        import('../../schemas/common.js'),
        import('../../schemas/measures.js'),
      ]);
      return parseWith(measureCreateSchema, body);
    },
    prompt: async (ctx, body) => (await import('./prompt.js')).promptMeasure(ctx, body),
  });
}
