import type { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { writeCommand } from '../resource/write.js';
import { examples, MEASURES } from '../shared.js';
import { MEASURE_FLAGS } from './fields.js';

export function updateCommand(ctx: Ctx): Command {
  return writeCommand(ctx, MEASURES, {
    verb: 'update',
    flags: MEASURE_FLAGS,
    examples: examples(
      'clinadmin measures update ID --unit mmol/L',
      'clinadmin measures update ID --reference-range "3.5-5.1 sex=male" --reference-range "3.4-5.0 sex=female"',
      'clinadmin measures update ID --data \'{"description": "serum"}\'',
    ),
    validate: async (body) => {
      const [{ parseWith }, { measurePatchSchema }] = await Promise.all([
        import('../../schemas/common.js'),
        import('../../schemas/measures.js'),
      ]);
      return parseWith(measurePatchSchema, body);
    },
  });
}
