/** The forms `measures export` writes; zod-free, so the command's help and its rule read one list. */
export const EXPORT_FORMATS = ['json', 'fhir', 'fhir-ndjson', 'csv', 'hl7'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The forms of a file `measures import` and `lint` read, in words, for their help. */
export const INPUT_FORMS = 'JSON, NDJSON, FHIR, HL7 v2, CSV or TSV';

/** The forms `measures import`, `lint` and `apply` take in --format: auto reads each file by its name and content. */
export const INPUT_FORMATS = ['auto', 'csv', 'hl7'] as const;
