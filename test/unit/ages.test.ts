import { describe, expect, it } from 'vitest';
import { type AgeUnit, edgeOf, formatAgeBand, inBand, parseAgeBand, spanOf, toYears } from '../../src/core/ages.js';
import { lintMeasure } from '../../src/core/lint.js';

// The age rule of `clinadmin help ranges`, checked from its statement: an edge reads back in the unit it
// was written in, and a band covers the ages whose completed count of each edge's unit lies in it.

describe('an edge reads back in the unit it was written in', () => {
  it('for every count a lab writes: hours of 2 years, days of 10, weeks of 10, months of 20, years to 150', () => {
    const limits: [AgeUnit, number][] = [
      ['h', 2 * 8766],
      ['d', 3653],
      ['wk', 522],
      ['mo', 240],
      ['y', 150],
    ];
    const wrong: string[] = [];
    for (const [unit, last] of limits) {
      for (let count = 1; count <= last; count++) {
        const e = edgeOf(toYears(count, unit));
        if (e.unit !== unit || e.count !== count || !e.whole) wrong.push(`${count} ${unit} → ${e.count} ${e.unit}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('stores the exact years where no larger unit has them, and within 2 parts in 10^15 where one does', () => {
    expect(toYears(28, 'd')).toBe(28 / 365.25);
    expect(toYears(11, 'mo')).toBe(11 / 12);
    expect(toYears(36, 'h')).toBe(36 / 8766);
    expect(toYears(17, 'y')).toBe(17);
    for (const [count, unit, years] of [
      [24, 'h', 1 / 365.25],
      [12, 'mo', 1],
      [2, 'wk', 14 / 365.25],
    ] as const) {
      expect(toYears(count, unit)).not.toBe(years);
      expect(Math.abs(toYears(count, unit) - years) / years).toBeLessThan(2e-15);
    }
  });

  it('is quick and whole for absurd ages too', () => {
    expect(edgeOf(toYears(1e20, 'h')).whole).toBe(true);
    expect(edgeOf(1e-7)).toMatchObject({ unit: 'h', whole: false });
  });
});

describe('a band covers its last hour, day, week, month and year', () => {
  const band = (text: string) => parseAgeBand(text, 'age');
  it('holds an age by its completed count of each edge unit', () => {
    const within = (age: number, text: string) => inBand(age, ...band(text));
    expect(within(36 / 8766, '25-48h')).toBe(true);
    expect(within(48.99 / 8766, '25-48h')).toBe(true);
    expect(within(49 / 8766, '25-48h')).toBe(false);
    expect(within(11.9 / 12, '29d-11mo')).toBe(true);
    expect(within(12 / 12, '29d-11mo')).toBe(false);
    expect(within(20.9 / 365.25, '0-2wk')).toBe(true);
    expect(within(21 / 365.25, '0-2wk')).toBe(false);
    expect(within(17.99, '1-17y')).toBe(true);
  });

  it('makes the bands labs write meet, with no gap and no overlap', () => {
    for (const [a, b] of [
      ['0-24h', '25-48h'],
      ['0-28d', '29d-1y'],
      ['29d-11mo', '1-17y'],
      ['0-6d', '7d-1mo'],
      ['1-12mo', '13mo-17y'],
      ['0-2wk', '21d-1mo'],
    ]) {
      const [, end] = spanOf(...band(a));
      const [start] = spanOf(...band(b));
      expect(Math.abs(start - end), `${a} then ${b}`).toBeLessThan(1e-12);
    }
  });

  it('names the ages two bands share, in one unit: 1–12 mo and 1–17 y share the 12th month', () => {
    const r = (text: string) => {
      const [ageMin, ageMax] = band(text);
      return { min: 1, max: 2, ageMin, ageMax };
    };
    expect(lintMeasure({ type: 'numeric', unit: 'g', referenceRanges: [r('1-12mo'), r('1-17y')] })).toEqual([
      {
        field: 'referenceRanges[1]',
        message: 'its age band overlaps referenceRanges[0] for sex all: age 12 mo is in both',
      },
    ]);
    expect(lintMeasure({ type: 'numeric', unit: 'g', referenceRanges: [r('0-24h'), r('1-3d')] })).toEqual([
      {
        field: 'referenceRanges[1]',
        message: 'its age band overlaps referenceRanges[0] for sex all: age 24 h is in both',
      },
    ]);
  });

  it('says each band in the units it was written in', () => {
    expect(formatAgeBand(...band('1-12mo'))).toBe('1–12 mo');
    expect(formatAgeBand(...band('0-24h'))).toBe('0–24 h');
    expect(formatAgeBand(...band('49h-5d'))).toBe('49 h–5 d');
    expect(formatAgeBand(...band('0-2wk'))).toBe('0–2 wk');
  });
});

describe('a bad age band from a flag', () => {
  it('names the flag and the value cut to 40 characters, with the forms accepted', () => {
    const long = `${'1'.repeat(5000)}-2-3`;
    expect(() => parseAgeBand(long, '--age-band')).toThrow(
      `--age-band "${'1'.repeat(40)}" is not an age band; write it as 18-65, 0-72h, 1-11mo or 29d-1y`,
    );
  });
});
