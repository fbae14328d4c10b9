import { describe, expect, it } from 'vitest';
import { formatRange, parseRangeSpec } from '../../src/core/ranges.js';

describe('range short form', () => {
  it('parses bounds, sex, age, SI bounds, precision and id', () => {
    expect(parseRangeSpec('3.5-5.1 sex=male age=18-65')).toEqual({
      min: 3.5,
      max: 5.1,
      sex: 'male',
      ageMin: 18,
      ageMax: 65,
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
    expect(formatRange({ min: 3.5, max: 5.1, sex: 'male', ageMin: 18, ageMax: 65 }, 'mmol/L')).toBe(
      '3.5–5.1 mmol/L (male, 18–65 y)',
    );
    expect(formatRange({ min: 12, minPrecision: 1, max: 15.5, sex: 'all' }, 'g/dL')).toBe('12.0–15.5 g/dL');
    expect(formatRange({ max: 2.5, simax: 2.5 }, 'mEq/L', 'mmol/L')).toBe('≤ 2.5 mEq/L [≤ 2.5 mmol/L]');
    expect(formatRange({ simin: 3.9, simax: 5.5 }, undefined, 'mmol/L')).toBe('3.9–5.5 mmol/L');
  });
});
