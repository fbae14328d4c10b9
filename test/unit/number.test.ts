// Covers: src/core/number.ts
import { describe, expect, it } from 'vitest';
import {
  decimalsOf,
  numberError,
  parseDecimal,
  plainDecimal,
  precisionOf,
  readDecimal,
  writtenPrecision,
} from '../../src/core/number.js';
import { comparableRange } from '../../src/core/ranges.js';

// The one reader of a number a person types, and the one writer of a number we export. The rules are
// --timeout's: digits, a minus sign where a negative makes sense, one decimal point (a decimal comma where
// the file declares it); the expected values are the decimal numbers the texts denote.

describe('parseDecimal: a number as a person writes it', () => {
  it('reads digits and one decimal point, keeping the decimals written', () => {
    expect(parseDecimal('8')).toEqual({ value: 8, decimals: 0 });
    expect(parseDecimal('8.0')).toEqual({ value: 8, decimals: 1 });
    expect(parseDecimal('0.10')).toEqual({ value: 0.1, decimals: 2 });
    expect(parseDecimal('0.0000001')).toEqual({ value: 0.0000001, decimals: 7 });
    expect(parseDecimal('.5')).toEqual({ value: 0.5, decimals: 1 });
    expect(parseDecimal('30.')).toEqual({ value: 30, decimals: 0 });
    expect(parseDecimal('007')).toEqual({ value: 7, decimals: 0 });
    expect(parseDecimal('1700000000000')).toEqual({ value: 1_700_000_000_000, decimals: 0 });
  });

  it('reads a minus sign only where a negative makes sense', () => {
    expect(parseDecimal('-2.50', { negative: true })).toEqual({ value: -2.5, decimals: 2 });
    expect(parseDecimal('-0', { negative: true })).toEqual({ value: 0, decimals: 0 });
    expect(parseDecimal('-2')).toBeUndefined();
  });

  it('reads a decimal comma only where the file declares it', () => {
    expect(parseDecimal('3,50', { comma: true })).toEqual({ value: 3.5, decimals: 2 });
    expect(parseDecimal('3.5', { comma: true })).toEqual({ value: 3.5, decimals: 1 });
    expect(parseDecimal('3,5')).toBeUndefined();
    expect(parseDecimal('1,000.5', { comma: true })).toBeUndefined();
  });

  it.each([
    '0x10',
    '0X10',
    '0b1',
    '0o7',
    '1e3',
    '1E3',
    '1e-7',
    '1_000',
    '+1',
    'Infinity',
    '-Infinity',
    'NaN',
    ' 1',
    '1 ',
    '1 000',
    '.',
    '',
    '-',
    '1.2.3',
    '--1',
    '١٢',
    '１２',
    '123456789012345678', // 18 significant digits: a double cannot tell them apart
    `${'9'.repeat(41)}`,
  ])('refuses %j', (text) => {
    expect(parseDecimal(text, { negative: true })).toBeUndefined();
  });

  it('keeps 17 significant digits, whatever the zeros around them', () => {
    expect(parseDecimal('123456789012345')?.value).toBe(123456789012345);
    expect(parseDecimal('0.000123456789012345')?.value).toBe(0.000123456789012345);
    expect(parseDecimal('12345678901234567')?.value).toBe(JSON.parse('12345678901234567'));
    expect(parseDecimal('123456789012345678')).toBeUndefined();
  });

  // Every double's shortest text (ECMA-262 Number::toString, what JSON and the server write) has at most 17
  // significant digits; arithmetic makes them: 7.22 + 1e-15, 0.1 + 0.2.
  it.each([
    ['7.220000000000001', 7.220000000000001, 15],
    ['3.590710444841534', 3.590710444841534, 15],
    ['0.30000000000000004', 0.30000000000000004, 17],
    ['-0.30000000000000004', -0.30000000000000004, 17],
    ['9007199254740993', 9007199254740992, 0],
  ])('reads %s as JSON.parse does', (text, value, decimals) => {
    expect(JSON.parse(text)).toBe(value);
    expect(parseDecimal(text, { negative: true })).toEqual({ value, decimals });
  });
});

describe('readDecimal and numberError: one sentence, naming what was given', () => {
  it('names the flag, field or cell and quotes the text', () => {
    expect(() => readDecimal('0x10', 'invalid option --breakdown-min', { negative: true })).toThrow(
      'invalid option --breakdown-min: must be a number: an optional minus sign, digits and at most one decimal ' +
        'point, as in -3.5 (got "0x10": the letter "x")',
    );
    expect(numberError('max', 'lots')).toBe(
      'max: must be a number: digits and at most one decimal point, as in 3.5 (got "lots")',
    );
    expect(numberError('max', '1e3')).toBe(
      'max: must be a number: digits and at most one decimal point, as in 3.5 (got "1e3": the letter "e")',
    );
    expect(numberError('min', 'x', { comma: true })).toBe(
      'min: must be a number: digits and one decimal comma or point, as in 3,5 (got "x")',
    );
  });

  it.each([
    ['1.2.3', {}, 'a second decimal point'],
    ['3,5', {}, 'a comma, where the decimal separator is a point'],
    ['3,5,1', { comma: true }, 'a second decimal point'],
    ['1,000.5', { comma: true }, 'a second decimal point'],
    ['7.22O', {}, 'the letter "O"'],
    ['-2', {}, 'a minus sign, where no negative is taken'],
    ['2-3', { negative: true }, 'a minus sign after the first digit'],
    ['+1', {}, 'a plus sign'],
    ['1 000', {}, 'a space'],
    ['1_000', {}, 'the character "_"'],
    ['١٢', {}, 'the digit "١", which is not one of 0-9'],
    ['0.123456789012345678', {}, '18 significant digits, more than the 17 a number is kept to'],
  ])('says what is wrong with %j', (text, rules, fault) => {
    expect(numberError('max', text, rules)).toMatch(new RegExp(`\\(got ".*": ${fault.replace(/[.()]/g, '\\$&')}\\)$`));
  });
});

describe('decimalsOf, plainDecimal, precisions', () => {
  it('counts the decimals of a double as JavaScript writes it shortest', () => {
    expect([2.2, 500, 0.1, 1e-7, 1.5e-7, 1e21, -3.25].map(decimalsOf)).toEqual([1, 0, 1, 7, 8, 0, 2]);
  });

  it('writes plain decimals, never an exponent, padded to a precision and never rounded', () => {
    expect(plainDecimal(1e-7)).toBe('0.0000001');
    expect(plainDecimal(1.5e-7)).toBe('0.00000015');
    expect(plainDecimal(-2.5e-8)).toBe('-0.000000025');
    expect(plainDecimal(1e21)).toBe('1000000000000000000000');
    expect(plainDecimal(1.25e22)).toBe('12500000000000000000000');
    expect(plainDecimal(8, 1)).toBe('8.0');
    expect(plainDecimal(0.1, 2)).toBe('0.10');
    expect(plainDecimal(11, 1)).toBe('11.0');
    expect(plainDecimal(3.45, 1)).toBe('3.45');
    expect(plainDecimal(1e-7, 9)).toBe('0.000000100');
    expect(plainDecimal(-0.5)).toBe('-0.5');
  });

  it('reads back what it writes, decimals included', () => {
    for (const [n, p] of [
      [1e-7, 0],
      [8, 1],
      [0.1, 2],
      [123.456, 4],
      [-5e-10, 10],
    ] as const) {
      const back = parseDecimal(plainDecimal(n, p), { negative: true });
      expect(back?.value).toBe(n);
      expect(back?.decimals).toBe(Math.max(p, decimalsOf(n)));
    }
  });

  it('sets a precision from text only where it says more than the value', () => {
    expect(writtenPrecision({ value: 8, decimals: 1 })).toBe(1);
    expect(writtenPrecision({ value: 0.1, decimals: 2 })).toBe(2);
    expect(writtenPrecision({ value: 0.1, decimals: 1 })).toBeUndefined();
    expect(writtenPrecision({ value: 8, decimals: 0 })).toBeUndefined();
    expect(precisionOf(0.1, undefined)).toBe(1);
    expect(precisionOf(0.1, 2)).toBe(2);
  });

  // docs/catalogs.md, "What a precision means": the fewest decimals a bound is shown with, never a rounding.
  it('writes a value with more decimals than its precision whole, and such a precision is no change', () => {
    expect(plainDecimal(7.220000000000001, 1)).toBe('7.220000000000001');
    expect(precisionOf(7.220000000000001, 1)).toBe(15);
    expect(precisionOf(8, 1)).toBe(1);
    expect(comparableRange({ min: 7.220000000000001, minPrecision: 1 })).toEqual({ min: 7.220000000000001 });
    expect(comparableRange({ min: 0.1, minPrecision: 1 })).toEqual({ min: 0.1 });
    expect(comparableRange({ min: 8, minPrecision: 1 })).toEqual({ min: 8, minPrecision: 1 });
  });
});
