// The seed's value sets, written once: the zod schemas build their enums from these, and flag help
// lists them without loading zod (start-up is a feature).
export const MEASURE_TYPE_VALUES = [
  'numeric',
  'posneg',
  'text',
  'html',
  'multiplechoice',
  'checklist',
  'numeric-breakdown',
] as const;
export const COVERAGE_TYPE_VALUES = ['deduction', 'override', 'unknown'] as const;
export const PAYMENT_METHOD_VALUES = ['prepaid', 'postpaid'] as const;
export const REF_TYPE_VALUES = ['services', 'inventory-stock-configurations'] as const;

/** The fields of a coverage the service copies from its contract (the `contracts` collection). */
export const COVERAGE_FROM_CONTRACT = ['insured', 'insurer', 'insurerType', 'insurerSubtype'] as const;
