import { Command, Option } from 'commander';
import type { Ctx } from '../../context.js';
import { examples, optsOf } from '../shared.js';

/** measures evaluate: a result interpreted as a lab system would, against a measure's ranges. */
export function evaluateCommand(ctx: Ctx): Command {
  return new Command('evaluate')
    .description("Interpret a result against a measure's ranges: critical-low, low, normal, high, critical-high")
    .argument('[id]', "the measure's id on the server, or its name (any case); or --file and --name")
    .option('--value <number>', 'the result (required)')
    .option('--si', 'the value is in the SI unit (read the SI bounds)')
    .addOption(new Option('--sex <sex>', "the patient's sex").choices(['male', 'female']))
    .option('--age <age>', "the patient's age: 45 (years), 45y, 11.9mo, 2wk, 28d or 36h (clinadmin help ranges)")
    .option('--file <file>', 'a catalog file (any format import reads) instead of the server')
    .option('--name <name>', 'with --file: the measure to evaluate')
    .option('--test <id>', 'with --file: its test, where names repeat or the file names none')
    .addHelpText(
      'after',
      `
A panic range holds critical limits, as FHIR R4 defines the "critical" range (results outside it are
critical): below its low limit is critical-low, above its high limit critical-high, a value equal to a
limit is not critical (FHIR's Range includes its ends; a file's zone "Critical Low" up to 20 includes 20,
and is read as the limit 21 at that precision). Panic ranges are checked first; then low, normal or high
against the reference range that applies, its bounds inclusive; no-range when none applies. Without --sex
or --age only the ranges for all sexes or all ages apply, and the answer says so. Exit 0 whatever the
interpretation.
${examples(
  'clinadmin measures evaluate msr_k --value 2.3',
  'clinadmin measures evaluate msr_hgb --value 6.8 --sex female --age 34 -o json',
  'clinadmin measures evaluate --file catalog.json --name Potassium --value 7.1 --age 72h',
)}`,
    )
    .action(async (id: string | undefined, _o: unknown, cmd: Command) => {
      const { evaluateMeasure } = await import('./evaluate-run.js');
      const opts = await optsOf(cmd, ({ z, numeric }) => ({
        value: numeric(undefined, ({ value }) => value, { negative: true }),
        si: z.optional(z.boolean()),
        sex: z.optional(z.enum(['male', 'female'])),
        age: z.optional(z.string()),
        file: z.optional(z.string()),
        name: z.optional(z.string()),
        test: z.optional(z.string()),
      }));
      await evaluateMeasure(ctx, opts, id);
    });
}
