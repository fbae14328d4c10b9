import type { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { writeCommand } from '../resource/write.js';
import { COVERAGES, examples } from '../shared.js';
import { COVERAGE_FLAGS } from './fields.js';

export function updateCommand(ctx: Ctx): Command {
  return writeCommand(ctx, COVERAGES, {
    verb: 'update',
    flags: COVERAGE_FLAGS,
    examples: examples(
      'clinadmin coverages update ID --percentage 80',
      'clinadmin coverages update ID --name "CBC copay 2027" --payment-method prepaid',
    ),
    validate: async (body) => {
      const [{ parseWith }, { coveragePatchSchema }] = await Promise.all([
        import('../../schemas/common.js'),
        import('../../schemas/coverages.js'),
      ]);
      return parseWith(coveragePatchSchema, body);
    },
  });
}
