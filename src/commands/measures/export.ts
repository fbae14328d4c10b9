import { Command, Option } from 'commander';
import type { Ctx } from '../../context.js';
import { EXPORT_FORMATS } from '../../formats/catalog-formats.js';
import { collect, examples, optsOf } from '../shared.js';

export function exportCommand(ctx: Ctx): Command {
  return new Command('export')
    .description("Write the server's measures as a catalog file: JSON for import, or FHIR R4 ObservationDefinitions")
    .addOption(
      new Option(
        '--format <format>',
        'json (what import reads), fhir (one Bundle), fhir-ndjson (one resource a line) or csv (one range a row)',
      )
        .choices(EXPORT_FORMATS)
        .default('json'),
    )
    .addOption(
      new Option(
        '--critical-as <reading>',
        'FHIR only: panic ranges as the critical limits FHIR defines (limits), or as one-sided zones with ' +
          'condition "Critical low"/"Critical high" (zones), for consumers that read them as Medplum does',
      )
        .choices(['limits', 'zones'])
        .default('limits'),
    )
    .addOption(
      new Option(
        '--delimiter <char>',
        'csv only: "," (Excel in English locales) or ";" (most European ones, with decimal commas)',
      )
        .choices([',', ';'])
        .default(','),
    )
    .option('--out <file>', 'write to this file (a temp file, then renamed: never half-written) instead of stdout')
    .addOption(new Option('--test <id>', 'only the measures of this test, repeatable').argParser(collect))
    .addHelpText(
      'after',
      `
Sorted by test, then name, without the fields the service sets (id, createdBy, createdAt), so two
exports of the same catalog are the same bytes and diff cleanly in git. The FHIR forms keep every field
(what R4 has no element for in extensions, see docs/catalogs.md), so export then import restores it exactly;
they carry the measure id as an identifier.
${examples(
  'clinadmin measures export --out catalog.json',
  'clinadmin measures export --format fhir --out catalog.fhir.json',
  'clinadmin measures export --format fhir-ndjson --test tst_cbc > cbc.ndjson',
  'clinadmin measures export --format fhir --critical-as zones > for-medplum.fhir.json',
  "clinadmin measures export --format csv --delimiter ';' --out catalog.csv   # Excel in a European locale",
)}`,
    )
    .action(async (_o: unknown, cmd: Command) => {
      const { exportMeasures } = await import('./export-run.js');
      await exportMeasures(
        ctx,
        await optsOf(cmd, ({ z }) => ({
          format: z.enum(EXPORT_FORMATS),
          criticalAs: z.enum(['limits', 'zones']),
          delimiter: z.enum([',', ';']),
          out: z.optional(z.string().check(z.minLength(1, 'needs a file path'))),
          test: z.optional(z.array(z.string())),
        })),
      );
    });
}
