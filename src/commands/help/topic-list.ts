// The help topics' names and one-line summaries: read by the program's help at every start, so kept apart
// from the pages themselves (topics.ts), which only `clinadmin help TOPIC` loads.
export const TOPIC_SUMMARIES: Record<string, string> = {
  ranges: 'the short form of a range, critical limits, and changing one range',
  input: 'what create, update, import and apply read, and how it is checked',
  output: 'the output formats, --fields and --query, and what goes to stdout',
  csv: 'CSV catalogs: the columns, the rows, and what Excel writes',
  hl7: 'HL7 v2 master files (MFN^M08, M09, M10): the mapping, ages, events',
  'exit-codes': 'what each exit code means',
  environment: 'the environment variables clinadmin reads',
};
