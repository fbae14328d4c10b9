// Realistic measures for the benchmark: ranges by sex and age, HL7 codes, units.

/** A LOINC code with its mod 10 check digit, as real codes have it (the lint warns of a wrong one). */
function loinc(n) {
  const digits = String(n);
  let sum = 0;
  for (let i = digits.length - 1, double = true; i >= 0; i--, double = !double) {
    let d = Number(digits[i]) * (double ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  return `${digits}-${(10 - (sum % 10)) % 10}`;
}
export function measures(n, prefix = 'bm') {
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push({
      id: `${prefix}_${i}`,
      createdAt: 1790000000000 + i,
      createdBy: 'bench',
      account: 'acc_bench',
      facility: 'fac_bench',
      test: `tst_${i % 250}`,
      name: `Measure ${i}`,
      type: 'numeric',
      unit: 'mmol/L',
      siunit: 'mmol/L',
      set: `Panel ${i % 40}`,
      hl7IdentifierCod: loinc(1000 + i),
      hl7IdentifierSys: 'LN',
      referenceRanges: [
        {
          id: `rr_${prefix}_${i}_m`,
          min: 3.5,
          minPrecision: 1,
          max: 5.1,
          maxPrecision: 1,
          simin: 3.5,
          simax: 5.1,
          sex: 'male',
          ageMin: 18,
          ageMax: 65,
        },
        {
          id: `rr_${prefix}_${i}_f`,
          min: 3.4,
          minPrecision: 1,
          max: 5,
          maxPrecision: 1,
          simin: 3.4,
          simax: 5,
          sex: 'female',
          ageMin: 18,
          ageMax: 65,
        },
      ],
      // Critical limits (FHIR's critical range): critical below 2.5 or above 6.5.
      panicRanges: [{ min: 2.5, max: 6.5, simin: 2.5, simax: 6.5, sex: 'all' }],
    });
  }
  return out;
}

/** What a client POSTs: a measure without the fields the service sets. */
export function newMeasureBody(i = 0) {
  const { id: _id, createdBy: _by, createdAt: _at, referenceRanges, ...rest } = measures(1, `new${i}`)[0];
  return { ...rest, referenceRanges: referenceRanges.map(({ id: _rid, ...r }) => r) };
}
