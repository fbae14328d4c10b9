// The columns of a CSV catalog, in the order export writes them: a leaf, so `help csv` and `--help` can
// name them without loading the CSV reader.

/** The measure's own columns, named as its fields. */
export const MEASURE_COLUMNS = [
  'test',
  'name',
  'type',
  'unit',
  'siunit',
  'set',
  'sets',
  'description',
  'choices',
  'hl7IdentifierCod',
  'hl7IdentifierSys',
  'numericBreakdownMin',
  'numericBreakdownMax',
  'account',
  'facility',
  'section',
] as const;

/** One range a row: which list it belongs to, then its fields. */
export const RANGE_COLUMNS = [
  'range',
  'sex',
  'ageMin',
  'ageMax',
  'min',
  'max',
  'minPrecision',
  'maxPrecision',
  'simin',
  'simax',
  'siminPrecision',
  'simaxPrecision',
  'rangeId',
] as const;
