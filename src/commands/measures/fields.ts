import { MEASURE_TYPE_VALUES } from '../../core/enums.js';
import type { FieldFlag } from '../../core/fields.js';

const RANGE_HELP = 'e.g. "3.5-5.1 sex=male age=18-65 si=3.5-5.1"';

export const MEASURE_FLAGS: FieldFlag[] = [
  { flags: '--test <id>', field: 'test', kind: 'string', description: 'the medical test the measure belongs to', update: false, required: true },
  { flags: '--name <name>', field: 'name', kind: 'string', description: 'name of the measure', update: true, required: true },
  { flags: '--type <type>', field: 'type', kind: 'string', description: 'result type', choices: MEASURE_TYPE_VALUES, update: true },
  { flags: '--unit <unit>', field: 'unit', kind: 'string', description: 'conventional unit, e.g. mg/dL', update: true },
  { flags: '--siunit <unit>', field: 'siunit', kind: 'string', description: 'SI unit, e.g. mmol/L', update: true },
  { flags: '--description <text>', field: 'description', kind: 'string', description: 'free text', update: true },
  { flags: '--set <name>', field: 'set', kind: 'string', description: 'the set the measure belongs to', update: true },
  { flags: '--sets <name>', field: 'sets', kind: 'list', description: 'sets, repeatable or comma-separated', update: true },
  { flags: '--choices <choice>', field: 'choices', kind: 'list', description: 'choices, repeatable or comma-separated', update: true },
  { flags: '--hl7-code <code>', field: 'hl7IdentifierCod', kind: 'string', description: 'HL7 identifier code, e.g. a LOINC code', update: true },
  { flags: '--hl7-system <system>', field: 'hl7IdentifierSys', kind: 'string', description: 'HL7 identifier system, e.g. LN', update: true },
  { flags: '--breakdown-min <n>', field: 'numericBreakdownMin', kind: 'number', description: 'numeric breakdown minimum', update: true },
  { flags: '--breakdown-max <n>', field: 'numericBreakdownMax', kind: 'number', description: 'numeric breakdown maximum', update: true },
  { flags: '--reference-range <range>', field: 'referenceRanges', kind: 'ranges', description: `reference range, repeatable; ${RANGE_HELP}`, update: true },
  { flags: '--panic-range <range>', field: 'panicRanges', kind: 'panic-ranges', description: `panic range, repeatable; ${RANGE_HELP}`, update: true },
  { flags: '--created-at <ms>', field: 'createdAt', kind: 'number', description: 'creation time in milliseconds since the epoch', update: true },
  { flags: '--account <id>', field: 'account', kind: 'string', description: 'account the measure belongs to', update: false },
  { flags: '--facility <id>', field: 'facility', kind: 'string', description: 'facility the measure belongs to', update: false },
];
