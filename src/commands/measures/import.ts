import { Command, Option } from 'commander';
import type { Ctx, RunState } from '../../context.js';
import { LEAVE_OUT_FLAG } from '../../core/unheld.js';
import { INPUT_FORMATS, INPUT_FORMS } from '../../formats/catalog-formats.js';
import { addSyncOptions, syncShape } from '../resource/sync-options.js';
import { strictOption } from '../resource/write-define.js';
import { collect, examples, optsOf } from '../shared.js';

/** --format, for import and lint alike. */
export const csvFormat = () =>
  new Option('--format <form>', `the input form: auto (by the file: ${INPUT_FORMS}), csv or hl7`)
    .choices(INPUT_FORMATS)
    .default('auto');

/** --leave-out-ranges, for import and lint alike (core/unheld.ts). */
export const leaveOutOption = () =>
  new Option(
    LEAVE_OUT_FLAG,
    'take a FHIR or HL7 measure without its ranges for people a range cannot name (a race, a pregnancy, a ' +
      'condition, an age or sex not read), each listed as left out; without it they are errors',
  );

/** --column, for import and lint alike: a sheet's header read as a field, or left out. */
export const columnOption = () =>
  new Option(
    '--column <header=field>',
    "a sheet's column read as a field (Analyte=name), or left out (Comments=); repeatable",
  ).argParser(collect);

export function importCommand(ctx: Ctx, state: RunState): Command {
  return addSyncOptions(
    new Command('import'),
    'print the plan (create, update with the changed fields, unchanged) and send nothing',
    'test',
  )
    .description(`Create or update measures from ${INPUT_FORMS} files; repeatable: equal records are left alone`)
    .argument(
      '<files...>',
      'JSON array, one object, a wrapper object such as {"diagnosticAnalyzers": [...]}, NDJSON, or FHIR ' +
        '(a Bundle, one ObservationDefinition, or FHIR NDJSON); - for stdin',
    )
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
A .csv or .tsv file (or --format csv, for stdin) holds one range a row, a measure's fields beside each of
its ranges, grouped by (test, name): its columns and rules are in \`clinadmin help csv\`.
Every record is validated before the first request; with any invalid record nothing is sent (exit 2).
FHIR R4 ObservationDefinitions are read as measures (the table in docs/catalogs.md); one that names no test
takes it from --test. A FHIR interval or HL7 range limited to people a measure's range cannot name (a race, a
pregnancy, a condition, an age or sex it cannot read) is an error; --leave-out-ranges imports the measure without
it, each such range listed as left out.
A record whose (test, name), or id, matches an existing measure updates it when something differs.
--prune makes the server hold exactly the file's measures for each test the file names: the others of
those tests are deleted, after the file's records are sent. Without a terminal it needs --yes.
Exit 0 when all went through, 1 when a record failed on the server, 130 when interrupted.
${examples(
  'clinadmin measures import cbc.json bmp.ndjson',
  'clinadmin measures import export.json --dry-run',
  'clinadmin --base-url https://lab-b.example.org measures import - < <(clinadmin measures list -o json)',
  'clinadmin measures import big.ndjson --concurrency 16 --report import-report.json',
  'clinadmin measures import cbc.json --prune --dry-run   # what would be deleted from those tests',
  'clinadmin measures import partner-catalog.fhir.json --test tst_chem',
  'clinadmin measures import catalog.csv --dry-run',
  'clinadmin measures import catalog.json --dry-run --exit-code   # CI: 1 when the server differs',
)}`,
    )
    .action(async (files: string[], _o: unknown, cmd: Command) => {
      const { runSync } = await import('../resource/sync-run.js');
      await runSync(
        ctx,
        await optsOf(cmd, (m) => ({
          ...syncShape(m),
          test: m.z.optional(m.z.string()),
          leaveOutRanges: m.z.optional(m.z.boolean()),
        })),
        'measures',
        files,
        state,
      );
    });
}
