// The mapping between a measure and HL7 v2.5.1's master file segments (chapter 8: OM1, OM2, OM3, OM5), in one
// place for both directions; docs/catalogs.md shows it as a table.

/** OM1-3's data types (HL7 table 0125) and the measure type each reads as. */
export const TYPE_OF: Record<string, string> = {
  NM: 'numeric',
  SN: 'numeric',
  CWE: 'multiplechoice',
  CE: 'multiplechoice',
  CNE: 'multiplechoice',
  ST: 'text',
  TX: 'text',
  FT: 'html',
};

/** The data type each measure type is written as; a type HL7 has no word for is written as the nearest. */
export const DATA_TYPE: Record<string, string> = {
  numeric: 'NM',
  'numeric-breakdown': 'NM',
  posneg: 'CWE',
  multiplechoice: 'CWE',
  checklist: 'CWE',
  text: 'ST',
  html: 'FT',
};

/** HL7 table 0078 (interpretation codes) holds POS and NEG: the answers of a positive/negative measure. */
export const ANSWER_SYSTEM_POSNEG = 'HL70078';
export const POSNEG_ANSWERS = [
  ['POS', 'Positive'],
  ['NEG', 'Negative'],
] as const;
/** UCUM's name in HL7 v2 coding systems (table 0396). */
export const UCUM_SYSTEM = 'UCUM';
/**
 * A measure's id on the server it came from, in OM1-7 (other identifiers of the observation) under a local
 * coding system (table 0396 reserves 99zzz for local ones), so that an export re-imports onto the same record.
 */
export const ID_SYSTEM = '99CLINADMIN';
/** The master file identifier (MFI-1, table 0175) of each message. */
export const MASTER_FILE: Record<string, string> = {
  M08: 'OMA^Numerical Observation^HL70175',
  M09: 'OMB^Categorical Observation^HL70175',
  M10: 'OMC^Observation Batteries^HL70175',
};
