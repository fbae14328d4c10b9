// Covers: src/core/lint.ts
import { describe, expect, it } from 'vitest';
import { lintMeasure } from '../../src/core/lint.js';

describe('lintMeasure', () => {
  it("is quiet for a clean measure, its panic range written as critical limits (the labs' convention)", () => {
    expect(
      lintMeasure({
        type: 'numeric',
        unit: 'mmol/L',
        referenceRanges: [
          { min: 3.5, max: 5.1, sex: 'male', ageMin: 18, ageMax: 121 },
          { min: 3.4, max: 5.0, sex: 'female', ageMin: 18, ageMax: 121 },
        ],
        // FHIR's critical range: results below 2.5 or above 6.5 are critical.
        panicRanges: [{ min: 2.5, max: 6.5 }],
      }),
    ).toEqual([]);
  });

  it('says each overlapping band once, naming the first band it overlaps, however many it does', () => {
    // A sheet pasted 2,000 times over: one warning a band (1,999), not one a pair (about two million).
    const band = { min: 1, max: 2, ageMin: 18, ageMax: 121 };
    const w = lintMeasure({ type: 'numeric', unit: 'g/L', referenceRanges: Array.from({ length: 2000 }, () => band) });
    expect(w).toHaveLength(1999);
    expect(w[0]).toEqual({
      field: 'referenceRanges[1]',
      message: 'its age band overlaps referenceRanges[0] for sex all: ages 18–120 y are in both',
    });
    expect(new Set(w.map((x) => x.field)).size).toBe(1999);
    expect(w.every((x) => x.message.startsWith('its age band overlaps referenceRanges[0] '))).toBe(true);
  });

  it('warns of a numeric measure without a unit, and overlapping bands of one sex', () => {
    const w = lintMeasure({
      type: 'numeric',
      referenceRanges: [
        { min: 1, max: 2, sex: 'male', ageMin: 0, ageMax: 19 },
        { min: 1, max: 2, sex: 'male', ageMin: 17, ageMax: 121 },
        { min: 1, max: 2, sex: 'female', ageMin: 17, ageMax: 121 },
      ],
    });
    expect(w).toEqual([
      { field: 'unit', message: 'a numeric measure has no unit' },
      {
        field: 'referenceRanges[1]',
        // 0–18 y holds ages until the 19th birthday, 17–120 y from the 17th: 17 and 18 completed years.
        message: 'its age band overlaps referenceRanges[0] for sex male: ages 17–18 y are in both',
      },
      {
        field: 'referenceRanges[2]',
        // The measure's bands run from 0 y; a female's, only from 17 y.
        message:
          "ages 0–16 y are not covered for sex female: the measure's bands start at 0 y, and the first for female " +
          'at 17 y',
      },
    ]);
  });

  it('warns of a band for all that overlaps one for a sex: evaluate reads the first that applies', () => {
    // For a woman of 34 both bands apply; evaluate would read 13 g/dL against the first, the men's.
    const w = lintMeasure({
      type: 'numeric',
      unit: 'g/dL',
      referenceRanges: [
        { min: 13.5, max: 17.5, sex: 'male', ageMin: 18, ageMax: 121 },
        { min: 12, max: 15.5, sex: 'all', ageMin: 18, ageMax: 121 },
        { min: 11, max: 14, ageMin: 1, ageMax: 18 },
      ],
    });
    expect(w).toEqual([
      {
        field: 'referenceRanges[1]',
        message: 'its age band overlaps referenceRanges[0] for sex male: ages 18–120 y are in both',
      },
    ]);
  });

  it('warns of a critical limit inside the reference range, SI bounds that disagree, and too many decimals', () => {
    const w = lintMeasure({
      type: 'numeric',
      unit: 'mg/dL',
      referenceRanges: [
        { min: 70, max: 100, simin: 3.9, simax: 5.6, minPrecision: 0 },
        { min: 110, max: 120, simin: 3.0, simax: 6.7, sex: 'male', ageMin: 0, ageMax: 2 },
      ],
      // Critical above 80: results from 80 to 100, inside the reference range, would be critical.
      panicRanges: [{ max: 80 }],
    });
    const fields = w.map((x) => x.field);
    expect(fields).toContain('panicRanges[0].max');
    expect(fields).toContain('referenceRanges[1].simin');
    expect(w.find((x) => x.field === 'panicRanges[0].max')?.message).toBe(
      'the critical high limit 80 is below the high end 100 of referenceRanges[0] (70–100, all): ' +
        'results in it would be critical',
    );
    const decimals = lintMeasure({ type: 'numeric', unit: 'g', referenceRanges: [{ min: 3.55, minPrecision: 1 }] });
    expect(decimals.map((x) => x.field)).toEqual(['referenceRanges[0].min']);
  });
});

describe('lint of age bands', () => {
  it('reports ages left uncovered between the bands of one sex, and not whole years that follow on', () => {
    const w = lintMeasure({
      type: 'numeric',
      unit: 'mmol/L',
      referenceRanges: [
        { min: 1, max: 2, sex: 'male', ageMin: 19, ageMax: 121 },
        { min: 1, max: 2, sex: 'male', ageMin: 0, ageMax: 18 },
        { min: 1, max: 2, sex: 'female', ageMin: 0, ageMax: 18 },
        { min: 1, max: 2, sex: 'female', ageMin: 18, ageMax: 121 },
      ],
    });
    expect(w).toEqual([
      {
        field: 'referenceRanges[0]',
        message: 'age 18 y is not covered for sex male: the bands before it end at 17 y, and it starts at 19 y',
      },
    ]);
  });
});
