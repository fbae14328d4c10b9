import type { FieldFlag } from '../../core/fields.js';
import { COVERAGE_TYPE_VALUES, PAYMENT_METHOD_VALUES, REF_TYPE_VALUES } from '../../schemas/values.js';

export const COVERAGE_FLAGS: FieldFlag[] = [
  {
    flags: '--contract <id>',
    field: 'contract',
    kind: 'string',
    description: 'the contract between insured and insurer',
    update: false,
    required: true,
  },
  { flags: '--name <name>', field: 'name', kind: 'string', description: 'coverage name', update: true, required: true },
  {
    flags: '--type <type>',
    field: 'type',
    kind: 'string',
    description: 'how the coverage applies',
    choices: COVERAGE_TYPE_VALUES,
    update: true,
    required: true,
  },
  {
    flags: '--payment-method <method>',
    field: 'paymentMethod',
    kind: 'string',
    description: 'how the insurer pays the insured',
    choices: PAYMENT_METHOD_VALUES,
    update: true,
  },
  { flags: '--amount <n>', field: 'amount', kind: 'number', description: 'amount covered', update: true },
  {
    flags: '--percentage <n>',
    field: 'percentage',
    kind: 'number',
    description: 'percentage covered, 0 to 100',
    update: true,
  },
  {
    flags: '--ref <id>',
    field: 'ref',
    kind: 'string',
    description: 'the referenced service or stock configuration',
    update: true,
  },
  {
    flags: '--ref-type <type>',
    field: 'refType',
    kind: 'string',
    description: 'what --ref refers to',
    choices: REF_TYPE_VALUES,
    update: true,
  },
  {
    flags: '--created-at <ms>',
    field: 'createdAt',
    kind: 'number',
    description: 'creation time in milliseconds since the epoch',
    update: true,
  },
];
