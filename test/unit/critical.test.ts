// Covers: src/formats/fhir/critical.ts src/core/interpret.ts src/core/ranges.ts src/core/lint.ts src/core/ages.ts
import { describe, expect, it } from 'vitest';
import { formatAge, formatAgeBand, parseAge, parseAgeBand, parseAgeEnd } from '../../src/core/ages.js';
import { evaluate } from '../../src/core/interpret.js';
import { lintMeasure } from '../../src/core/lint.js';
import { formatCritical, parseRangeSpec } from '../../src/core/ranges.js';

// The oracle: FHIR R4's observation-range-category defines `critical` as "Critical Range for Ordinal and
// Continuous Observations. Results outside this range are critical." A value equal to a limit is inside it.
// Ages: UCUM's a = 365.25 d, mo = a/12, wk = 7 d, h = d/24.

/** A lab's potassium in the limits convention: reference 3.5–5.1, critical < 2.5 or > 6.5 mmol/L. */
const potassium = {
  type: 'numeric',
  unit: 'mmol/L',
  referenceRanges: [{ min: 3.5, max: 5.1, simin: 3.5, simax: 5.1 }],
  panicRanges: [{ min: 2.5, max: 6.5, simin: 2.5, simax: 6.5 }],
};

/** Hemoglobin by sex and age, with a neonatal band in days and a critical low limit only for adults. */
const hemoglobin = {
  type: 'numeric',
  unit: 'g/dL',
  referenceRanges: [
    { min: 14, max: 24, ageMin: 0, ageMax: parseAgeEnd('3d', 'age') },
    { min: 13.5, max: 17.5, sex: 'male', ageMin: 18, ageMax: 121 },
    { min: 12, max: 15.5, sex: 'female', ageMin: 18, ageMax: 121 },
  ],
  panicRanges: [
    { min: 7, max: 20, ageMin: 18 },
    { min: 10, max: 26, ageMin: 0, ageMax: parseAgeEnd('3d', 'age') },
  ],
};

describe('measures evaluate: a result interpreted as FHIR defines critical and reference ranges', () => {
  const cases: [string, object, number, Parameters<typeof evaluate>[2], string][] = [
    ['below the critical low limit', potassium, 2.4, {}, 'critical-low'],
    ['equal to the critical low limit (inside the critical range: not critical)', potassium, 2.5, {}, 'low'],
    ['between the critical low limit and the reference low', potassium, 3.0, {}, 'low'],
    ['equal to the reference low (bounds inclusive)', potassium, 3.5, {}, 'normal'],
    ['inside the reference range', potassium, 4.2, {}, 'normal'],
    ['equal to the reference high', potassium, 5.1, {}, 'normal'],
    ['above the reference high', potassium, 5.2, {}, 'high'],
    ['equal to the critical high limit', potassium, 6.5, {}, 'high'],
    ['above the critical high limit', potassium, 6.6, {}, 'critical-high'],
    ['a man of 40 at 13', hemoglobin, 13, { sex: 'male', age: 40 }, 'low'],
    ['a woman of 40 at 13 (her band is 12–15.5)', hemoglobin, 13, { sex: 'female', age: 40 }, 'normal'],
    ['a woman of 40 at 6.9: critical below 7', hemoglobin, 6.9, { sex: 'female', age: 40 }, 'critical-low'],
    [
      'a newborn of 72 h at 9.9: the neonatal limit 10',
      hemoglobin,
      9.9,
      { age: parseAge('72h', 'age') },
      'critical-low',
    ],
    ['a newborn of 72 h at 25: high, not critical (limit 26)', hemoglobin, 25, { age: parseAge('72h', 'age') }, 'high'],
    ['a newborn of 3 d 12 h: still in the band written 0–3 d', hemoglobin, 25, { age: parseAge('84h', 'age') }, 'high'],
    ['a child of 4 d at 25: no band applies', hemoglobin, 25, { age: parseAge('4d', 'age') }, 'no-range'],
    ['no sex given: the ranges for one sex do not apply', hemoglobin, 13, { age: 40 }, 'no-range'],
    ['no age given: no band with ages applies', hemoglobin, 5, { sex: 'male' }, 'no-range'],
    [
      'a panic range without a reference range still says critical',
      { panicRanges: [{ min: 2 }] },
      1,
      {},
      'critical-low',
    ],
  ];
  for (const [what, measure, value, subject, expected] of cases) {
    it(`${what}: ${expected}`, () => {
      expect(evaluate(measure, value, subject).interpretation).toBe(expected);
    });
  }

  it('reads the SI limits with si, and says which ranges applied', () => {
    const glucose = {
      referenceRanges: [{ min: 70, max: 99, simin: 3.9, simax: 5.5 }],
      panicRanges: [{ min: 40, max: 450, simin: 2.2, simax: 25 }],
    };
    expect(evaluate(glucose, 2.1, {}, true)).toEqual({
      interpretation: 'critical-low',
      reference: glucose.referenceRanges,
      panic: glucose.panicRanges,
    });
    expect(evaluate(glucose, 30, {}, false).interpretation).toBe('critical-low');
    expect(evaluate(glucose, 30, {}, true).interpretation).toBe('critical-high');
  });
});

describe('--panic-range: the forms for critical limits', () => {
  it('reads <, > and both limits, with sex, age, si and precision', () => {
    expect(parseRangeSpec('<2.5', '--panic-range', true)).toEqual({ min: 2.5 });
    expect(parseRangeSpec('>6.5 sex=male', '--panic-range', true)).toEqual({ max: 6.5, sex: 'male' });
    const neonatal = parseRangeSpec('2.5-6.5 age=0-72h si=2.5-6.5 precision=1', '--panic-range', true);
    // 72 h is 3 d in years: stored a double above, so that it reads back in hours (help ranges).
    expect(neonatal.ageMax).toBe(73 / (365.25 * 24));
    expect(formatAgeBand(neonatal.ageMin, neonatal.ageMax)).toBe('0–72 h');
    expect({ ...neonatal, ageMax: 0 }).toEqual({
      min: 2.5,
      max: 6.5,
      ageMin: 0,
      ageMax: 0,
      simin: 2.5,
      simax: 6.5,
      minPrecision: 1,
      maxPrecision: 1,
    });
    expect(parseRangeSpec('si=<2.2', '--panic-range', true)).toEqual({ simin: 2.2 });
  });

  it('refuses the open forms, which read the other way before, with one sentence showing the limit forms', () => {
    for (const form of ['..2.5', '6.5..', '2.5'])
      expect(() => parseRangeSpec(form, '--panic-range', true)).toThrow(
        /write "<2\.5" \(critical below 2\.5\), ">6\.5" \(critical above 6\.5\) or "2\.5-6\.5" \(both limits\)/,
      );
    // A reference range keeps its open forms.
    expect(parseRangeSpec('..5.1')).toEqual({ max: 5.1 });
  });

  it('says the one meaning in views: critical < 2.5 or > 6.5', () => {
    expect(formatCritical({ min: 2.5, max: 6.5 }, 'mmol/L')).toBe('critical < 2.5 or > 6.5 mmol/L');
    expect(formatCritical({ min: 7, sex: 'male' }, 'g/dL')).toBe('critical < 7 g/dL (male)');
    expect(formatCritical({ max: 20, ageMin: 0, ageMax: parseAgeEnd('28d', 'age') })).toBe('critical > 20 (0–28 d)');
  });
});

describe('the lint under the one meaning', () => {
  it("gives no panic warning for a catalog in the labs' convention", () => {
    expect(lintMeasure(potassium)).toEqual([]);
    // No panic warning; the one warning is the real gap between the newborn band and the adults' bands.
    expect(lintMeasure(hemoglobin)).toEqual([
      {
        field: 'referenceRanges[1]',
        message: 'ages 4 d–17 y are not covered for sex all: the bands before it end at 3 d, and it starts at 18 y',
      },
    ]);
  });

  it('tells a zone written where a limit was meant, and how to write the limit', () => {
    const w = lintMeasure({
      type: 'numeric',
      unit: 'g/dL',
      referenceRanges: [{ min: 12, max: 17 }],
      panicRanges: [{ max: 7 }],
    });
    expect(w).toEqual([
      {
        field: 'panicRanges[0].max',
        message:
          'max 7 makes every result above 7 critical, the whole of referenceRanges[0] (12–17, all) included; ' +
          'if results below 7 are critical, write the critical low limit as min 7 ("<7")',
      },
    ]);
    const high = lintMeasure({
      type: 'numeric',
      unit: 'mg/dL',
      referenceRanges: [{ min: 40, max: 60 }],
      panicRanges: [{ min: 100 }],
    });
    expect(high.map((x) => x.message)).toEqual([
      'min 100 makes every result below 100 critical, the whole of referenceRanges[0] (40–60, all) included; ' +
        'if results above 100 are critical, write the critical high limit as max 100 (">100")',
    ]);
  });

  it('warns of a critical low limit above the reference low, naming both', () => {
    const w = lintMeasure({
      type: 'numeric',
      unit: 'mmol/L',
      referenceRanges: [{ min: 135, max: 145 }],
      panicRanges: [{ min: 138 }],
    });
    expect(w.map((x) => `${x.field}: ${x.message}`)).toEqual([
      'panicRanges[0].min: the critical low limit 138 is above the low end 135 of referenceRanges[0] (135–145, all): ' +
        'results in it would be critical',
    ]);
  });

  it('finds no false gap between 0–28 d and 29 d–1 y, and a real one between 0–7 d and 1–12 mo', () => {
    const band = (age: string) => {
      const [ageMin, ageMax] = parseAgeBand(age, 'age');
      return { min: 1, max: 2, ageMin, ageMax };
    };
    expect(lintMeasure({ type: 'numeric', unit: 'g', referenceRanges: [band('0-28d'), band('29d-1y')] })).toEqual([]);
    expect(lintMeasure({ type: 'numeric', unit: 'g', referenceRanges: [band('0-7d'), band('1-12mo')] })).toEqual([
      {
        field: 'referenceRanges[1]',
        // A month is a twelfth of 365.25 d: 30.4375 d, so a 30-day-old has 0 completed months.
        message: 'ages 8–30 d are not covered for sex all: the bands before it end at 7 d, and it starts at 1 mo',
      },
    ]);
  });
});

describe('ages in the unit a lab writes them', () => {
  it('reads h, d, wk, mo and years, and shows each in the largest unit it is whole in', () => {
    expect(parseAge('28d', 'age')).toBe(28 / 365.25);
    expect(parseAge('11mo', 'age')).toBe(11 / 12);
    expect(parseAge('36h', 'age')).toBe(36 / 8766);
    expect(parseAge('17y', 'age')).toBe(17);
    expect(parseAge('17a', 'age')).toBe(17);
    expect(parseAge('30', 'age')).toBe(30);
    // One age, one number: shown in the largest of h, d, mo, y it is whole in (help ranges).
    expect(formatAge(parseAge('72h', 'age'))).toBe('3 d');
    expect(formatAge(parseAge('3d', 'age'))).toBe('3 d');
    expect(formatAge(parseAge('2wk', 'age'))).toBe('14 d');
    expect(formatAge(parseAge('12mo', 'age'))).toBe('1 y');
    expect(formatAge(parseAge('14d', 'age'))).toBe('14 d');
    expect(formatAge(parseAge('36h', 'age'))).toBe('36 h');
    expect(formatAgeBand(...parseAgeBand('0-72h', 'age'))).toBe('0–72 h');
    expect(formatAgeBand(...parseAgeBand('0-28d', 'age'))).toBe('0–28 d');
    expect(formatAgeBand(...parseAgeBand('29d-1y', 'age'))).toBe('29 d–1 y');
    expect(formatAgeBand(...parseAgeBand('1-12mo', 'age'))).toBe('1–12 mo');
    expect(formatAgeBand(...parseAgeBand('29d-11mo', 'age'))).toBe('29 d–11 mo');
    expect(formatAgeBand(18, 66)).toBe('18–65 y');
  });

  it('reads a number as exact years: a whole count of a unit in that unit, another as years', () => {
    // 28/365.25 = 0.0766598..., so 0.0767 is no whole count of any unit: it is that age, not 28 d.
    expect(formatAge(0.0767)).toBe('0.0767 y');
    expect(formatAge(28 / 365.25)).toBe('28 d');
    expect(formatAge(Number((29 / 365.25).toPrecision(15)))).toBe('29 d');
    expect(formatAge(11 / 12)).toBe('11 mo');
    expect(formatAge(1.5)).toBe('18 mo');
    expect(formatAge(0.5)).toBe('6 mo');
    expect(formatAge(2)).toBe('2 y');
  });

  it('refuses an age in another form, naming the value and the forms', () => {
    // Words for the units are read (`28 days`); a word that is no unit is refused.
    expect(parseAge('28 days', '--age')).toBe(parseAge('28d', '--age'));
    expect(() => parseAge('28 nights', '--age')).toThrow(
      '--age "28 nights" is not an age; write years (17, 2.5) or a count with its unit: ' +
        '36h, 28d, 2wk, 11mo, 17y (or 17a, 28 days, 11 months)',
    );
    expect(() => parseAge('-1d', '--age')).toThrow('is not an age');
  });
});

describe("FHIR's critical intervals from another system: limits, or zones where they can only be zones", () => {
  it('reads a one-sided interval beyond the reference range as a zone, and warns of one no reading fits', async () => {
    const { readCritical } = await import('../../src/formats/fhir/critical.js');
    const reference = [{ min: 40, max: 60 }];
    const warnings: { field: string; message: string }[] = [];
    const zoneLow = { r: { max: 20 } as Record<string, unknown>, at: 'qualifiedInterval[1]' };
    const limits = { r: { min: 30, max: 90 } as Record<string, unknown>, at: 'qualifiedInterval[2]' };
    const inside = { r: { min: 50 } as Record<string, unknown>, at: 'qualifiedInterval[3]' };
    readCritical([zoneLow, limits, inside], reference, warnings);
    // high: 20 below a reference of 40–60 can only be "critical up to 20", 20 included (R4 Range: "The low and
    // high values are inclusive"): at the precision 20 is written in, critical below 21.
    expect(zoneLow.r).toEqual({ min: 21 });
    expect(limits.r).toEqual({ min: 30, max: 90 });
    // low: 50 inside 40–60: critical below 50 puts results of the reference range among the critical ones.
    expect(inside.r).toEqual({ min: 50 });
    expect(warnings.map((w) => w.field)).toEqual(['qualifiedInterval[1]', 'qualifiedInterval[3]']);
    expect(warnings[1].message).toMatch(/makes results inside the reference range 40–60 critical/);
  });

  it('joins the two marked sides of one of our panic ranges, and takes no interval not such a side', async () => {
    const { joinSide } = await import('../../src/formats/fhir/critical.js');
    const panic: Record<string, unknown>[] = [];
    const sides = new Map<number, Record<string, unknown>>();
    // Critical below 2.5 at precision 1 is the zone up to 2.4, ends included ("Critical low"); critical above
    // 6.5 the zone from 6.6.
    expect(joinSide(sides, 0, { max: 2.4, simax: 2.4, sex: 'male', ageMin: 18 }, 'critical low', panic)).toBe(panic[0]);
    expect(joinSide(sides, 0, { min: 6.6, simin: 6.6, sex: 'male', ageMin: 18 }, 'critical high', panic)).toBe(
      panic[0],
    );
    expect(panic).toEqual([{ min: 2.5, simin: 2.5, max: 6.5, simax: 6.5, sex: 'male', ageMin: 18 }]);
    // A file changed by hand: a third side of range 0, a two-sided interval, a condition that is not its side,
    // and sides of one index for other people (an interval copied to make a women's or a newborns' one).
    const low = { max: 2 };
    const both = { min: 1, max: 9 };
    const wrong = { min: 7 };
    expect(joinSide(sides, 0, low, 'critical low', panic)).toBeUndefined();
    expect(joinSide(sides, 1, both, 'critical low', panic)).toBeUndefined();
    expect(joinSide(sides, 1, wrong, 'critical low', panic)).toBeUndefined();
    expect(joinSide(sides, 2, { max: 2.7, sex: 'female' }, 'critical low', panic)).toBe(panic[1]);
    const others = [{ min: 6.2, sex: 'male' }, { min: 6.2 }, { min: 6.2, sex: 'female', ageMax: 1 }];
    for (const other of others) expect(joinSide(sides, 2, other, 'critical high', panic)).toBeUndefined();
    // What is not taken is as it was, for the caller to read as any other critical interval.
    expect([low, both, wrong]).toEqual([{ max: 2 }, { min: 1, max: 9 }, { min: 7 }]);
    expect(panic).toEqual([panic[0], { min: 2.8, sex: 'female' }]);
  });
});
