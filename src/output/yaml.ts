import { stringify } from 'yaml';

/**
 * `-o yaml` through the `yaml` package, written for YAML 1.1 readers too (PyYAML, many CI tools): text such
 * as `yes`, `on` or `2026-01-01` is quoted, so no reader takes it for a boolean or a date. Long text is not
 * folded (lineWidth 0), so a value stays on its line for grep and diff.
 */
export const toYaml = (data: unknown): string => stringify(data, { version: '1.1', lineWidth: 0 });
