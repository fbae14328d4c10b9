import type { Command } from 'commander';
import type { Ctx } from '../../context.js';
import { measures } from '../../resources/index.js';
import { updateCommand as updateOf } from '../resource/update.js';
import { examples } from '../shared.js';

export function updateCommand(ctx: Ctx): Command {
  return updateOf(ctx, measures, {
    lint: async (body) => (await (await import('../../core/units.js')).measureLinter())(body),
    examples: examples(
      'clinadmin measures update ID --unit mmol/L',
      'clinadmin measures update ID --set-reference-range "1 3.5-5.1 sex=male"',
      'clinadmin measures update ID --add-reference-range "3.4-5.0 sex=female" --dry-run',
      'clinadmin measures update ID --data \'{"description": "serum"}\'',
      'clinadmin measures show ID -o json > m.json && $EDITOR m.json && clinadmin measures update ID -f m.json',
    ),
  });
}
