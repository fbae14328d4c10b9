// Covers: src/core/ages.ts src/core/interpret.ts src/schemas/ages-legacy.ts
import { describe, expect, it } from 'vitest';
import { formatAgeBand, inBand, parseAge, parseAgeBand, readAgesIn, spanOf } from '../../src/core/ages.js';
import { evaluate } from '../../src/core/interpret.js';
import { lintMeasure } from '../../src/core/lint.js';
import type { RangeLike } from '../../src/core/ranges.js';
import { fromLegacy, legacyYears } from '../../src/schemas/ages-legacy.js';

// The age convention of `clinadmin help ranges`, checked from outside sources: UCUM's units of time
// (a = 365.25 d, mo = a/12, wk = 7 d: https://ucum.org/ucum §31–32), FHIR R4's Range (its ends are exact
// values: https://hl7.org/fhir/R4/datatypes.html#Range), and the lab's completed-unit notation (0–28 d is
// every age before day 29, 18–120 every age before the 121st birthday).

const band = (text: string) => parseAgeBand(text, 'age');
const H = 1 / 8766;
const D = 1 / 365.25;
const MO = 1 / 12;

describe('the notation people write becomes exact years [ageMin, ageMax)', () => {
  it('sends 0–28 d as 0 and 29 d, 18–120 as 18 and 121 years', () => {
    expect(band('0-28d')).toEqual([0, 29 * D]);
    expect(band('18-120')).toEqual([18, 121]);
    expect(band('29d-11mo')).toEqual([29 * D, 1]);
    expect(band('25h-7d')).toEqual([25 * H, 8 * D]);
  });

  it('reads the units as labs write them in words, in any case', () => {
    expect(band('0-28 days')).toEqual(band('0-28d'));
    expect(band('0 Days-11 Months')).toEqual(band('0d-11mo'));
    expect(band('25 hours-7 days')).toEqual(band('25h-7d'));
    expect(band('2 wks-17 yrs')).toEqual(band('2wk-17y'));
    expect(parseAge('36 hrs', 'age')).toBe(parseAge('36h', 'age'));
    expect(parseAge('1 year', 'age')).toBe(1);
    expect(() => parseAge('28 dys', 'ageMax')).toThrow('ageMax "28 dys" is not an age; write years');
  });

  it('accepts 12mo-1y (the second year) and 24h-1d (the second day)', () => {
    expect(band('12mo-1y')).toEqual([1, 2]);
    expect(band('24h-1d')).toEqual([D, 2 * D]);
    expect(formatAgeBand(...band('12mo-1y'))).toBe('1 y');
    expect(formatAgeBand(...band('24h-1d'))).toBe('1 d');
  });

  it('refuses a band that holds no age, in the units written', () => {
    expect(() => band('3-1y')).toThrow(
      'age "3-1y" holds no age: it starts at 3y, not before 1y, the last age it covers',
    );
    expect(() => band('29d-28d')).toThrow('it starts at 29d, not before 28d, the last age it covers');
    expect(() => band('0-1.5y')).toThrow('a band ends with a whole count of completed units (1y for ages below 2 y)');
  });

  it('reads "28d" in a JSON catalog as the last completed day, and a number as exact years', () => {
    const record = {
      referenceRanges: [
        { min: 1, ageMin: '8d', ageMax: '28d' },
        { min: 1, ageMin: 2, ageMax: 18 },
      ],
    };
    expect(readAgesIn(record)).toEqual([]);
    expect(record.referenceRanges).toEqual([
      { min: 1, ageMin: 8 * D, ageMax: 29 * D },
      { min: 1, ageMin: 2, ageMax: 18 },
    ]);
  });
});

describe('a band shows by one rule: largest whole unit, the upper end as its last completed unit', () => {
  it('on the lab’s own bands', () => {
    const shown: [number, number, string][] = [
      [0, 25 * H, '0–24 h'],
      [25 * H, 49 * H, '25–48 h'],
      [49 * H, 73 * H, '49–72 h'],
      [73 * H, 8 * D, '73 h–7 d'],
      [25 * H, 8 * D, '25 h–7 d'],
      [0, 29 * D, '0–28 d'],
      [8 * D, 1 + MO, '8 d–12 mo'],
      [29 * D, 1, '29 d–11 mo'],
      [1, 2, '1 y'],
      [1, 18, '1–17 y'],
      [18, 121, '18–120 y'],
      [6 * MO, 18 * MO, '6–17 mo'],
    ];
    for (const [lo, hi, text] of shown) expect(formatAgeBand(lo, hi), text).toBe(text);
  });

  it('reads back from the text it shows to the same band', () => {
    for (const text of ['0-24h', '25h-7d', '0-28d', '8d-12mo', '29d-11mo', '12mo-1y', '18-120', '2-52wk']) {
      const [lo, hi] = band(text);
      const again = band(
        formatAgeBand(lo, hi)
          .replace(/ /g, '')
          .replace('–', '-')
          .replace(/^(\d+)([a-z]+)$/, '$1$2-$1$2'),
      );
      expect(again, text).toEqual([lo, hi]);
    }
  });
});

describe('a reader keeping 15 significant digits gets the same band', () => {
  it('for every count of hours to 2 y, days to 10 y, months to 20 y and years to 150', () => {
    const wrong: string[] = [];
    for (const [unit, last] of [
      ['h', 2 * 8766],
      ['d', 3653],
      ['mo', 240],
      ['y', 150],
    ] as const) {
      for (let n = 0; n < last; n++) {
        const [lo, hi] = band(`${n}${unit}-${n}${unit}`);
        const [lo15, hi15] = [lo, hi].map((x) => Number(x!.toPrecision(15)));
        const same = formatAgeBand(lo15, hi15) === formatAgeBand(lo, hi);
        const [a, b] = [spanOf(lo15, hi15), spanOf(lo, hi)];
        if (!same || a[0] !== b[0] || a[1] !== b[1]) wrong.push(`${n} ${unit}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('through JSON text written with 15 digits', () => {
    const stored = band('8d-12mo');
    const text = JSON.stringify(stored.map((x) => Number(x!.toPrecision(15))));
    const [lo, hi] = JSON.parse(text) as number[];
    expect(formatAgeBand(lo, hi)).toBe('8 d–12 mo');
    expect(inBand(parseAge('13mo', '--age'), lo, hi)).toBe(false);
    expect(inBand(parseAge('12mo', '--age'), lo, hi)).toBe(true);
  });
});

describe('evaluate picks the band an age is in: ageMin <= age < ageMax', () => {
  // A neonatal catalog: bilirubin in hours and days, hemoglobin by age and sex (g/dL).
  const ref = (age: string, min: number, max: number, sex?: 'male' | 'female'): RangeLike => {
    const [ageMin, ageMax] = band(age);
    return { min, max, ageMin, ageMax, ...(sex ? { sex } : {}) };
  };
  const bilirubin = {
    referenceRanges: [
      ref('0-24h', 0, 6),
      ref('25-48h', 0, 10),
      ref('49-72h', 0, 12),
      ref('73h-7d', 0, 15),
      ref('8-28d', 0, 12),
    ],
  };
  const hemoglobin = {
    referenceRanges: [
      ref('0-28d', 14, 24),
      ref('29d-11mo', 10, 14),
      ref('1-17y', 11, 15.5),
      ref('18-120', 13.5, 17.5, 'male'),
      ref('18-120', 12, 15.5, 'female'),
    ],
  };
  const picked = (m: { referenceRanges: RangeLike[] }, age: number, sex?: 'male' | 'female') => {
    const r = evaluate(m, 1, { age, sex }).reference;
    return r.map((x) => formatAgeBand(x.ageMin, x.ageMax)).join(',') || 'none';
  };

  it('bilirubin on and between every boundary', () => {
    const cases: [string, string][] = [
      ['0h', '0–24 h'],
      ['12h', '0–24 h'],
      ['24.99h', '0–24 h'],
      ['25h', '25–48 h'],
      ['48.5h', '25–48 h'],
      ['49h', '49–72 h'],
      ['72.99h', '49–72 h'],
      ['73h', '73 h–7 d'],
      ['7d', '73 h–7 d'],
      ['191.99h', '73 h–7 d'],
      ['8d', '8–28 d'],
      ['28.9d', '8–28 d'],
      ['29d', 'none'],
    ];
    for (const [age, want] of cases) expect(picked(bilirubin, parseAge(age, '--age')), age).toBe(want);
  });

  it('hemoglobin by age and sex on and between every boundary', () => {
    const cases: [string, 'male' | 'female' | undefined, string][] = [
      ['0d', undefined, '0–28 d'],
      ['28.99d', undefined, '0–28 d'],
      ['29d', 'female', '29 d–11 mo'],
      ['11.9mo', undefined, '29 d–11 mo'],
      ['12mo', undefined, '1–17 y'],
      ['1y', 'male', '1–17 y'],
      ['17.99', undefined, '1–17 y'],
      ['18', 'male', '18–120 y'],
      ['18', undefined, 'none'],
      ['40', 'female', '18–120 y'],
      ['120.99', 'female', '18–120 y'],
      ['121', 'male', 'none'],
    ];
    for (const [age, sex, want] of cases)
      expect(picked(hemoglobin, parseAge(age, '--age'), sex), `${age} ${sex}`).toBe(want);
  });
});

describe('the bands labs write meet', () => {
  it('with no gap and no overlap', () => {
    for (const [a, b] of [
      ['0-24h', '25-48h'],
      ['0-28d', '29d-1y'],
      ['29d-11mo', '1-17y'],
      ['0-6d', '7d-1mo'],
      ['1-12mo', '13mo-17y'],
      ['0-2wk', '21d-1mo'],
    ]) {
      expect(spanOf(...band(b))[0], `${a} then ${b}`).toBe(spanOf(...band(a))[1]);
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
});

describe('the old stored form (data file format 1) keeps its meaning', () => {
  it('reads each old band as the same ages', () => {
    // Format 1 stored the last completed unit, its unit in the last bit where a larger unit had the number.
    expect(fromLegacy(0, legacyYears(28, 'd'))).toEqual([0, 29 * D]);
    expect(fromLegacy(legacyYears(8, 'd'), legacyYears(12, 'mo'))).toEqual([8 * D, 13 * MO]);
    expect(fromLegacy(legacyYears(25, 'h'), legacyYears(7, 'd'))).toEqual([25 * H, 8 * D]);
    expect(fromLegacy(18, 120)).toEqual([18, 121]);
    expect(fromLegacy(legacyYears(24, 'h'), legacyYears(48, 'h'))).toEqual([D, 49 * H]);
    expect(fromLegacy(legacyYears(2, 'wk'), undefined)).toEqual([14 * D, undefined]);
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
