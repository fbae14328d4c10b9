import { MEASURE_TYPE_VALUES } from '../schemas/values.js';
import { CREATED_FIELDS, type Resource } from './registry.js';

const RANGE_HELP = 'e.g. "3.5-5.1 sex=male age=18-65 si=3.5-5.1"';

export const measures: Resource = {
  group: 'measures',
  noun: 'measure',
  plural: 'measures',
  path: '/diagnostic-measures',
  collection: 'diagnosticMeasures',
  idPrefix: 'msr',
  key: ['test', 'name'],
  wrappers: ['diagnosticAnalyzers', 'diagnosticMeasures', 'measures'],
  subIds: { referenceRanges: 'rr' },
  nameExample: 'glucose',
  schemas: async () => (await import('../schemas/measures.js')).measureSchemas as never,
  filters: ['test', 'type'],
  wide: [
    'siunit',
    'set',
    'hl7IdentifierCod',
    { key: 'rangeCount', field: 'referenceRanges', header: 'RANGES', format: 'range-count' },
    'createdAt',
  ],
  fields: {
    id: { header: 'ID', shown: true },
    test: { flag: '--test <id>', help: 'the medical test the measure belongs to', header: 'TEST', shown: true },
    name: { flag: '--name <name>', help: 'name of the measure', header: 'NAME', shown: true, free: true },
    type: { flag: '--type <type>', help: 'result type', choices: MEASURE_TYPE_VALUES, header: 'TYPE', shown: true },
    unit: { flag: '--unit <unit>', help: 'conventional unit, e.g. mg/dL', header: 'UNIT', shown: true },
    referenceRanges: {
      flag: '--reference-range <range>',
      help: `reference range, repeatable; ${RANGE_HELP}`,
      kind: 'ranges',
      header: 'REFERENCE RANGES',
      shown: true,
      format: 'ranges',
    },
    panicRanges: {
      flag: '--panic-range <range>',
      help:
        'panic range: the critical limits (FHIR "critical"), repeatable; "<2.5" critical below, ">6.5" above, ' +
        '"2.5-6.5" both, e.g. "2.5-6.5 sex=male age=18-65 si=2.5-6.5"',
      kind: 'panic-ranges',
      header: 'PANIC RANGES',
      format: 'ranges',
    },
    siunit: { flag: '--siunit <unit>', help: 'SI unit, e.g. mmol/L', header: 'SI UNIT' },
    set: { flag: '--set <name>', help: 'the set the measure belongs to', header: 'SET' },
    sets: { flag: '--sets <name>', help: 'sets, repeatable or comma-separated', kind: 'list', header: 'SETS' },
    description: { flag: '--description <text>', help: 'free text', header: 'DESCRIPTION', free: true },
    choices: {
      flag: '--choices <choice>',
      help: 'choices, repeatable or comma-separated',
      kind: 'list',
      header: 'CHOICES',
    },
    hl7IdentifierCod: { flag: '--hl7-code <code>', help: 'HL7 identifier code, e.g. a LOINC code', header: 'HL7 CODE' },
    hl7IdentifierSys: { flag: '--hl7-system <system>', help: 'HL7 identifier system, e.g. LN', header: 'HL7 SYSTEM' },
    numericBreakdownMin: {
      flag: '--breakdown-min <n>',
      help: 'numeric breakdown minimum',
      kind: 'number',
      header: 'BREAKDOWN MIN',
    },
    numericBreakdownMax: {
      flag: '--breakdown-max <n>',
      help: 'numeric breakdown maximum',
      kind: 'number',
      header: 'BREAKDOWN MAX',
    },
    account: { flag: '--account <id>', help: 'account the measure belongs to', header: 'ACCOUNT' },
    facility: { flag: '--facility <id>', help: 'facility the measure belongs to', header: 'FACILITY' },
    section: { flag: '--section <name>', help: 'the section of the laboratory, e.g. Chemistry', header: 'SECTION' },
    ...CREATED_FIELDS,
  },
};
