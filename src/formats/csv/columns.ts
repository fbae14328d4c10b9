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

/**
 * Critical limits on a reference range's own row, as many labs' sheets keep them: read as a panic range for
 * the same sex and ages. Import reads them; export writes panic rows.
 */
export const LIMIT_COLUMNS = ['criticalLow', 'criticalHigh'] as const;

/** Marks a measure of a sheet without a test column: the import gives it --test's (core/sync/measures-spec.ts). */
export const SHEET_WITHOUT_TEST = Symbol('clinadmin.sheetWithoutTest');

/** A reference range in one cell, as many sheets keep it (`3.5-5.1`, `3.5 – 5.1 mmol/L`, `≤ 5.0`): import only. */
export const RANGE_CELL = 'referenceRange';

/**
 * The words labs head these columns with, each as a lab writes it (help csv lists them), for the column it
 * stands for. A header is matched in any case, spaces, `_`, `-` and `.` aside: `Ref low`, `REF_LOW`, `reflow`.
 */
export const COLUMN_WORDS: Readonly<Record<string, string>> = {
  Panel: 'test',
  Measure: 'name',
  Analyte: 'name',
  // OpenELIS's and hospital LIS exports name the analyte a test.
  testName: 'name',
  'Lab Test': 'name',
  Units: 'unit',
  unitOfMeasure: 'unit',
  UCUM: 'unit',
  'SI units': 'siunit',
  LOINC: 'hl7IdentifierCod',
  'LOINC code': 'hl7IdentifierCod',
  Code: 'hl7IdentifierCod',
  'Code system': 'hl7IdentifierSys',
  'Range type': 'range',
  Kind: 'range',
  Gender: 'sex',
  'Age from': 'ageMin',
  'Age to': 'ageMax',
  'Age low': 'ageMin',
  'Age high': 'ageMax',
  'Min age': 'ageMin',
  'Max age': 'ageMax',
  'Ref low': 'min',
  'Ref high': 'max',
  'Reference low': 'min',
  'Reference high': 'max',
  Low: 'min',
  High: 'max',
  low_value: 'min',
  high_value: 'max',
  'Lower limit': 'min',
  'Upper limit': 'max',
  // OpenELIS's test catalog sheets (test/fixtures/openelis): NORMAL RANGE MIN and MAX.
  'Normal range min': 'min',
  'Normal range max': 'max',
  'SI low': 'simin',
  'SI high': 'simax',
  'Reference range': RANGE_CELL,
  'Ref range': RANGE_CELL,
  'Normal range': RANGE_CELL,
  'Reference interval': RANGE_CELL,
  'Critical low': 'criticalLow',
  'Critical high': 'criticalHigh',
  'Panic low': 'criticalLow',
  'Panic high': 'criticalHigh',
};

/** A header as it is compared: lower case, without spaces, `_`, `-` or `.`. */
export const headerKey = (h: string): string => h.toLowerCase().replace(/[\s_.-]+/g, '');
