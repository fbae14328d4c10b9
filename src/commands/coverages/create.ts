import type { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { writeCommand } from '../resource/write.js';
import { COVERAGES, examples } from '../shared.js';
import { COVERAGE_FLAGS } from './fields.js';

export function createCommand(ctx: Ctx): Command {
  return writeCommand(ctx, COVERAGES, {
    verb: 'create',
    flags: COVERAGE_FLAGS,
    examples: examples(
      'clinadmin coverages create --contract ctr_acme_2026 --name "CBC copay" --type deduction --amount 15 ' +
        '--ref svc_cbc --ref-type services',
      'clinadmin coverages create --data @coverage.json',
      'clinadmin coverages create   # at a terminal: asks for what is missing',
    ),
    validate: async (body) => {
      const [{ parseWith }, { coverageCreateSchema }] = await Promise.all([
        import('../../schemas/common.js'),
        import('../../schemas/coverages.js'),
      ]);
      return parseWith(coverageCreateSchema, body);
    },
    prompt: async (ctx, body) => (await import('./prompt.js')).promptCoverage(ctx, body),
  });
}
