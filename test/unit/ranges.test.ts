// Covers: src/core/ranges.ts src/output/diff-lines.ts
import { describe, expect, it } from 'vitest';
import { comparableRange, formatRange, parseRangeSpec } from '../../src/core/ranges.js';
import { pairRanges } from '../../src/output/diff-lines.js';

describe('range short form', () => {
  it('parses bounds, sex, age, SI bounds, precision and id', () => {
    expect(parseRangeSpec('3.5-5.1 sex=male age=18-65')).toEqual({
      min: 3.5,
      max: 5.1,
      sex: 'male',
      ageMin: 18,
      ageMax: 66,
    });
    expect(parseRangeSpec('3.5..5.1 si=35..51 precision=1 id=rr_1')).toEqual({
      min: 3.5,
      max: 5.1,
      simin: 35,
      simax: 51,
      minPrecision: 1,
      maxPrecision: 1,
      id: 'rr_1',
    });
    expect(parseRangeSpec('..2.5')).toEqual({ max: 2.5 });
    expect(parseRangeSpec('6.5..')).toEqual({ min: 6.5 });
    expect(parseRangeSpec('-10..-2')).toEqual({ min: -10, max: -2 });
    expect(parseRangeSpec('sex=female si=1-2')).toEqual({ sex: 'female', simin: 1, simax: 2 });
  });

  it('says what is wrong with a bad range', () => {
    expect(() => parseRangeSpec('abc')).toThrow(
      '--reference-range "abc" is not a range; write it as MIN-MAX, MIN.. or ..MAX',
    );
    expect(() => parseRangeSpec('1-2 colour=red', '--panic-range')).toThrow('--panic-range: unknown key "colour"');
    expect(() => parseRangeSpec('1-2 sex=')).toThrow('needs a value');
  });

  it('formats a range as a lab admin reads it', () => {
    expect(formatRange({ min: 3.5, max: 5.1, sex: 'male', ageMin: 18, ageMax: 66 }, 'mmol/L')).toBe(
      '3.5–5.1 mmol/L (male, 18–65 y)',
    );
    expect(formatRange({ min: 12, minPrecision: 1, max: 15.5, sex: 'all' }, 'g/dL')).toBe('12.0–15.5 g/dL');
    expect(formatRange({ max: 2.5, simax: 2.5 }, 'mEq/L', 'mmol/L')).toBe('≤ 2.5 mEq/L [≤ 2.5 mmol/L]');
    expect(formatRange({ simin: 3.9, simax: 5.5 }, undefined, 'mmol/L')).toBe('3.9–5.5 mmol/L');
  });
});

describe('precision as written, in the short form and in plans', () => {
  it('keeps the decimals written where they say more than the value; precision= wins', () => {
    expect(parseRangeSpec('11.0-14.0')).toEqual({ min: 11, minPrecision: 1, max: 14, maxPrecision: 1 });
    expect(parseRangeSpec('0.10-1.2 si=8.0-9')).toEqual({
      min: 0.1,
      minPrecision: 2,
      max: 1.2,
      simin: 8,
      siminPrecision: 1,
      simax: 9,
    });
    expect(parseRangeSpec('8.00-9 precision=1')).toEqual({ min: 8, minPrecision: 1, max: 9, maxPrecision: 1 });
    expect(parseRangeSpec('<2.50', '--panic-range', true)).toEqual({ min: 2.5, minPrecision: 2 });
    expect(() => parseRangeSpec('1-5 precision=one')).toThrow(
      '--reference-range precision: must be a number: digits and at most one decimal point, as in 3.5 (got "one")',
    );
    expect(formatRange({ min: 0.0000001, max: 8, maxPrecision: 1 })).toBe('0.0000001–8.0');
  });

  it('compares a precision the value already says as no precision', () => {
    expect(comparableRange({ min: 0.1, minPrecision: 1, max: 1.2 })).toEqual({ min: 0.1, max: 1.2 });
    expect(comparableRange({ min: 8, minPrecision: 1 })).toEqual({ min: 8, minPrecision: 1 });
    expect(comparableRange({ min: 8, minPrecision: 0, simax: 1e-7, simaxPrecision: 7 })).toEqual({
      min: 8,
      simax: 1e-7,
    });
  });
});

describe('pairRanges: by id, then by sex and band', () => {
  it('pairs an inserted band as one addition and a dropped one as one removal', () => {
    const stored = [
      { id: 'rr_1', min: 4, max: 7, ageMin: 1, ageMax: 17 },
      { id: 'rr_2', min: 2.5, max: 4.5, ageMin: 18, ageMax: 120 },
    ];
    const given = [
      { min: 4.5, max: 8.3, ageMin: 0, ageMax: 0.9 },
      { ...stored[0] },
      { min: 2.5, max: 4.4, ageMin: 18, ageMax: 120 },
    ];
    expect(pairRanges(stored, given)).toEqual([
      [undefined, 0],
      [0, 1],
      [1, 2],
    ]);
    expect(pairRanges(stored, [stored[1]])).toEqual([
      [1, 0],
      [0, undefined],
    ]);
    // An id wins over a band; a range of another sex is not the same band.
    expect(
      pairRanges(stored, [
        { id: 'rr_2', min: 1, ageMin: 1, ageMax: 17 },
        { sex: 'male', ageMin: 1, ageMax: 17 },
      ]),
    ).toEqual([
      [1, 0],
      [undefined, 1],
      [0, undefined],
    ]);
  });
});
