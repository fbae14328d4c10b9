/** The forms `measures export` writes; zod-free, so the command's help and its rule read one list. */
export const EXPORT_FORMATS = ['json', 'fhir', 'fhir-ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
