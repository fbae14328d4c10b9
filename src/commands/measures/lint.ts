import { Command } from 'commander';
import type { Ctx, RunState } from '../../context.js';
import { INPUT_FORMATS, INPUT_FORMS } from '../../formats/catalog-formats.js';
import { strictOption } from '../resource/write-define.js';
import { examples, optsOf } from '../shared.js';
import { columnOption, csvFormat, leaveOutOption } from './import.js';

export function lintCommand(ctx: Ctx, state: RunState): Command {
  return new Command('lint')
    .description('Check measure files for errors and clinical-sense warnings, sending nothing')
    .argument('<files...>', `${INPUT_FORMS} files as for import; - for stdin`)
    .addOption(strictOption())
    .option(
      '--test <id>',
      'the test of measures a file names none for (FHIR, HL7 without a battery, a sheet without a test column)',
    )
    .addOption(csvFormat())
    .addOption(leaveOutOption())
    .addOption(columnOption())
    .addHelpText(
      'after',
      `
Warns about overlapping age bands for one sex and ages left uncovered, critical limits (a panic range, as
FHIR defines the critical range) inside the reference range they guard or written where a zone was meant,
SI and conventional bounds that disagree in direction, bounds with more decimals than their precision,
numeric measures without a unit, units that are not UCUM, SI bounds that do not follow from the
conventional ones, and LOINC codes with a wrong check digit. A FHIR or HL7 range limited to people a range
cannot name (a race, a pregnancy, a condition, an unread age or sex) is an error, as import says it.
Exit 2 on errors, 1 on warnings with --strict.
${examples(
  'clinadmin measures lint cbc.json',
  'clinadmin measures lint *.json --strict',
  'clinadmin measures lint catalog.csv',
)}`,
    )
    .action(async (files: string[], _o: unknown, cmd: Command) => {
      const { lint } = await import('./lint-run.js');
      const opts = await optsOf(cmd, ({ z }) => ({
        test: z.optional(z.string()),
        format: z.enum(INPUT_FORMATS),
        leaveOutRanges: z.optional(z.boolean()),
        column: z.optional(z.array(z.string())),
      }));
      state.exitCode = await lint(ctx, opts, files);
    });
}
