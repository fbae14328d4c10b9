// Covers: src/formats/csv/write.ts src/output/formats.ts
import { describe, expect, it } from 'vitest';
import { catalogCsv } from '../../src/formats/csv/write.js';
import { toCsv } from '../../src/output/formats.js';

// Issue 37: one rule against CSV formula injection for every CSV clinadmin writes. Expected cells from
// OWASP's CSV injection advice (a leading ' before =, +, -, @, tab, CR), and the catalog's exact round trip.

const CASES: [unknown, string][] = [
  ['=1+1', "'=1+1"],
  ['+41 555', "'+41 555"],
  ['-x', "'-x"],
  ['@SUM(A1)', "'@SUM(A1)"],
  ['\tTAB', "'\tTAB"],
  ["'=already", "''=already"],
  ["''+twice", "'''+twice"],
  ["it's", "it's"],
  ['plain', 'plain'],
  [-5, '-5'],
];

describe('one CSV formula rule', () => {
  it.each(CASES)('-o csv and the catalog write %j as %j', (value, cell) => {
    expect(toCsv([{ v: value }], ['v'])).toBe(`v\r\n${cell}\r\n`);
    const field = typeof value === 'number' ? 'numericBreakdownMin' : 'description';
    const catalog = catalogCsv([{ test: 't', name: 'n', [field]: value }]);
    const header = catalog.split('\r\n')[0].split(',');
    expect(catalog.split('\r\n')[1].split(',')[header.indexOf(field)]).toBe(cell);
  });
});
