// Covers: src/output/formats.ts src/output/yaml.ts src/formats/csv/write.ts
import { parse as parseCsv } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { toCsv } from '../../src/output/formats.js';
import { toYaml } from '../../src/output/yaml.js';

/** Records as a server could send them: JSON values of every shape, keys of any text. */
const records = fc
  .array(fc.dictionary(fc.string({ minLength: 1, unit: 'binary' }), fc.jsonValue(), { maxKeys: 6 }), { maxLength: 8 })
  // What JSON carries: -0 becomes 0, and the like.
  .map((rs) => JSON.parse(JSON.stringify(rs)) as Record<string, unknown>[]);

describe('output formats read back by third-party parsers', () => {
  it('-o yaml parses back, with the `yaml` package, to the same records', () => {
    fc.assert(
      fc.property(records, (rs) => {
        // Read as YAML 1.2 and as 1.1 (PyYAML's version), the same records.
        expect(parseYaml(toYaml(rs))).toEqual(rs);
        expect(parseYaml(toYaml(rs), { version: '1.1' })).toEqual(rs);
      }),
      { numRuns: 500 },
    );
  });

  it('-o yaml writes numbers in plain digits, which YAML 1.2 and 1.1 read as the same numbers', () => {
    const r = { low: 1e-7, high: -2.5e-8, big: 1e21, count: 8, half: 0.5 };
    const text = toYaml(r);
    expect(text).toBe('low: 0.0000001\nhigh: -0.000000025\nbig: 1000000000000000000000\ncount: 8\nhalf: 0.5\n');
    expect(parseYaml(text)).toEqual(r);
    expect(parseYaml(text, { version: '1.1' })).toEqual(r);
  });

  it('-o csv parses back with `csv-parse` to the same cells: text (formulas escaped), JSON objects, null empty', () => {
    fc.assert(
      fc.property(records, (rs) => {
        const keys = [...new Set(rs.flatMap((r) => Object.keys(r)))];
        fc.pre(keys.length > 0);
        // Text a spreadsheet would run as a formula comes back with the leading ' OWASP advises; text that
        // already starts with quotes before one gets one more, so a reader taking one off gets it exact.
        const text = (s: string) => (/^'*[=+\-@\t\r]/.test(s) ? `'${s}` : s);
        const cell = (v: unknown) =>
          v === undefined || v === null
            ? ''
            : typeof v === 'object'
              ? JSON.stringify(v)
              : typeof v === 'string'
                ? text(v)
                : String(v);
        // Rows as arrays, header first: csv-parse's `columns` mode builds objects, where a key such as
        // __proto__ would be lost in the parser rather than in our output.
        const parsed = parseCsv(toCsv(rs, keys), { bom: false, relax_column_count: false }) as string[][];
        // A number is written in plain decimal digits, never an exponent (5e-324 is 0.000…5), and reads
        // back as the same double (ECMA-262's StringToNumber).
        rs.forEach((r, i) => {
          keys.forEach((k, j) => {
            const v = r[k];
            if (v !== null && typeof v === 'object') {
              // An object or list is its JSON, numbers in it plain too; JSON.parse gives it back.
              expect(JSON.parse(parsed[i + 1][j])).toEqual(v);
              parsed[i + 1][j] = JSON.stringify(v);
              return;
            }
            if (typeof v !== 'number') return;
            expect(parsed[i + 1][j]).toMatch(/^-?\d+(\.\d+)?$/);
            expect(Number(parsed[i + 1][j])).toBe(v + 0);
            parsed[i + 1][j] = String(v);
          });
        });
        expect(parsed).toEqual([keys.map(text), ...rs.map((r) => keys.map((k) => cell(r[k])))]);
      }),
      { numRuns: 500 },
    );
  });
});
