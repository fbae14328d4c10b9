/** Plain serialisers: no dependency, so piping JSON costs no start-up. */

export function toJson(data: unknown): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

export function toNdjson(data: unknown): string {
  const items = Array.isArray(data) ? data : [data];
  return items.map((d) => JSON.stringify(d)).join('\n') + (items.length > 0 ? '\n' : '');
}

// A text cell a spreadsheet would run as a formula gets a leading ' (OWASP's CSV injection advice).
// Only text: a number such as -5 stays a number.
const FORMULA = /^[=+\-@\t\r]/;

function csvCell(v: unknown): string {
  if (v === undefined || v === null) return '';
  let s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  if (typeof v === 'string' && FORMULA.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV line (without its CRLF) of the given values. */
export const csvRow = (values: unknown[]) => values.map(csvCell).join(',');

export function toCsv(rows: Record<string, unknown>[], keys: string[]): string {
  const lines = [csvRow(keys)];
  for (const r of rows) lines.push(csvRow(keys.map((k) => r[k])));
  return `${lines.join('\r\n')}\r\n`;
}

const PLAIN = /^[A-Za-z_][\w ./@-]*$/;
const RESERVED = /^(true|false|null|yes|no|on|off|~)$/i;

function yamlScalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const s = String(v);
  return PLAIN.test(s) && !RESERVED.test(s) && !s.endsWith(' ') ? s : JSON.stringify(s);
}

/** YAML 1.2 block style; strings that could be misread are double-quoted (JSON strings are valid YAML). */
export function toYaml(data: unknown, indent = ''): string {
  if (Array.isArray(data)) {
    if (data.length === 0) return `${indent}[]\n`;
    return data
      .map((item) => {
        if (item !== null && typeof item === 'object' && Object.keys(item).length > 0) {
          const body = toYaml(item, `${indent}  `);
          return `${indent}- ${body.slice(indent.length + 2)}`;
        }
        return `${indent}- ${yamlInline(item)}\n`;
      })
      .join('');
  }
  if (data !== null && typeof data === 'object') {
    const entries = Object.entries(data as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return `${indent}{}\n`;
    return entries
      .map(([k, v]) => {
        const key = yamlScalar(k);
        if (v !== null && typeof v === 'object' && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0)) {
          return `${indent}${key}:\n${toYaml(v, Array.isArray(v) ? indent : `${indent}  `)}`;
        }
        return `${indent}${key}: ${yamlInline(v)}\n`;
      })
      .join('');
  }
  return `${indent}${yamlScalar(data)}\n`;
}

function yamlInline(v: unknown): string {
  if (Array.isArray(v)) return '[]';
  if (v !== null && typeof v === 'object') return '{}';
  return yamlScalar(v);
}
