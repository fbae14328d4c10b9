// Covers: src/core/units.ts
import { describe, expect, it } from 'vitest';
import { loadUcum, loincCheckDigit, unitWarnings } from '../../src/core/units.js';

// Oracles: LOINC codes as LOINC publishes them (their last digit is the mod 10 check digit), UCUM's spelling
// of units (case-sensitive: meq, ug), and published conversions of glucose between mg/dL and mmol/L.

const ucum = await loadUcum();

describe('LOINC check digits', () => {
  it('gives the check digit of real LOINC codes', () => {
    for (const code of ['2823-3', '718-7', '2345-7', '6690-2', '2106-3', '2951-2', '5778-6', '14749-6'])
      expect(loincCheckDigit(code.split('-')[0]), code).toBe(Number(code.split('-')[1]));
  });

  it('warns of a wrong one, giving the digit it should have', () => {
    expect(unitWarnings({ hl7IdentifierCod: '2823-4', hl7IdentifierSys: 'LN' }, ucum)).toEqual([
      {
        field: 'hl7IdentifierCod',
        message: '2823-4 has a wrong LOINC check digit: 2823-3 is the code with that number',
      },
    ]);
    expect(unitWarnings({ hl7IdentifierCod: '718-7', hl7IdentifierSys: 'http://loinc.org' }, ucum)).toEqual([]);
    // Another system's code is not LOINC's to check.
    expect(unitWarnings({ hl7IdentifierCod: '2823-4', hl7IdentifierSys: 'http://snomed.info/sct' }, ucum)).toEqual([]);
  });
});

describe('units as UCUM writes them', () => {
  it('warns of a lab spelling with the UCUM one, and not of valid or dimensionless units', () => {
    expect(unitWarnings({ unit: 'mEq/L', siunit: 'mmol/L' }, ucum)).toEqual([
      { field: 'unit', message: '"mEq/L" is not valid UCUM; UCUM writes it meq/L' },
    ]);
    expect(unitWarnings({ unit: 'mcg/mL' }, ucum).map((w) => w.message)).toEqual([
      '"mcg/mL" is not valid UCUM; UCUM writes it ug/mL',
    ]);
    for (const unit of ['mg/dL', 'g/L', '10*3/uL', '%', '1', '[pH]', '{ratio}', 'U/L'])
      expect(unitWarnings({ unit }, ucum), unit).toEqual([]);
  });

  it('checks SI bounds against UCUM where the units are commensurable (g/dL and g/L: × 10)', () => {
    expect(
      unitWarnings(
        { unit: 'g/dL', siunit: 'g/L', referenceRanges: [{ min: 13.5, max: 17.5, simin: 135, simax: 175 }] },
        ucum,
      ),
    ).toEqual([]);
    expect(
      unitWarnings(
        { unit: 'g/dL', siunit: 'g/L', referenceRanges: [{ min: 13.5, max: 17.5, simin: 13.5, simax: 175 }] },
        ucum,
      ),
    ).toEqual([
      {
        field: 'referenceRanges[0].simin',
        message: '13.5 is not 13.5 g/dL in g/L, which is 135 (UCUM: 1 g/dL = 10 g/L)',
      },
    ]);
  });

  it('where they are not (mg/dL and mmol/L need a molecular weight), one factor must explain every range', () => {
    // Glucose as published: 40 → 2.2, 70 → 3.9, 99 → 5.5, 500 → 27.8 mmol/L (÷ 18.016).
    const glucose = {
      unit: 'mg/dL',
      siunit: 'mmol/L',
      referenceRanges: [{ min: 70, max: 99, simin: 3.9, simax: 5.5 }],
      panicRanges: [{ min: 40, max: 500, simin: 2.2, simax: 27.8 }],
    };
    expect(unitWarnings(glucose, ucum)).toEqual([]);
    const typo = { ...glucose, panicRanges: [{ min: 40, max: 500, simin: 2.2, simax: 2.78 }] };
    const [w, ...more] = unitWarnings(typo, ucum);
    expect(more).toEqual([]);
    expect(w.field).toBe('panicRanges[0].simax');
    const said = '2.78 does not follow from 500 by the factor the other ranges share (mg/dL to mmol/L); it would be ';
    expect(w.message.startsWith(said)).toBe(true);
    const m = /([\d.]+)$/.exec(w.message);
    // The published value, 27.8 mmol/L, to its one decimal.
    expect(Number(m?.[1]).toFixed(1)).toBe('27.8');
  });
});
