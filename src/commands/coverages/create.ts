import type { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { coverages } from '../../resources/index.js';
import { createCommand as createOf } from '../resource/create.js';
import { examples } from '../shared.js';

export function createCommand(ctx: Ctx): Command {
  return createOf(ctx, coverages, {
    examples: examples(
      'clinadmin coverages create --contract ctr_acme_2026 --name "CBC copay" --type deduction --amount 15 ' +
        '--ref svc_cbc --ref-type services',
      'clinadmin coverages create --data @coverage.json',
      'clinadmin coverages create   # at a terminal: asks for what is missing',
    ),
    prompt: async (ctx, body) => (await import('./prompt.js')).promptCoverage(ctx, body),
  });
}
