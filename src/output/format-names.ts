/** The output formats, written once: the -o flag's choices and its parsed rule both read this. */
export const FORMATS = ['table', 'wide', 'json', 'ndjson', 'csv', 'yaml'] as const;
