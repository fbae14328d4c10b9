// A generated measure catalog that uses every field and every shape a field may take, the same on
// every run (a seeded generator), for round-trip tests.

const TYPES = ['numeric', 'posneg', 'text', 'html', 'multiplechoice', 'checklist', 'numeric-breakdown'];
/** Valid UCUM, and units labs write that are not UCUM (carried as text). */
const UNITS = ['mg/dL', 'mmol/L', 'g/L', '10*3/uL', '%', 'U/L', 'fL', 'mEq/L', 'cells/uL', 'x10^9/L'];
const SYSTEMS = ['LN', 'SNOMED', 'http://loinc.org', 'urn:oid:2.16.840.1.113883.6.1', 'L'];
const SECTIONS: unknown[] = ['Chemistry', { name: 'Hematology', floor: 2 }, ['Urinalysis', 'Microscopy'], 7, null];

export function generatedCatalog(count: number): Record<string, unknown>[] {
  let seed = 20261123;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
  const maybe = (p = 0.5) => rand() < p;
  const decimal = (lo: number, hi: number, places: number) => Number((lo + rand() * (hi - lo)).toFixed(places));
  const range = (withId: boolean) => {
    const places = Math.floor(rand() * 3);
    const min = decimal(-5, 50, places);
    const max = Number((min + decimal(0, 100, places)).toFixed(places));
    const r: Record<string, unknown> = {};
    if (withId && maybe(0.3)) r.id = `rr_gen_${Math.floor(rand() * 1e9)}`;
    if (maybe(0.9)) r.min = min;
    if (maybe(0.5)) r.minPrecision = places;
    if (maybe(0.9) || r.min === undefined) r.max = max;
    if (maybe(0.5)) r.maxPrecision = places;
    if (maybe(0.6)) {
      const f = pick([1, 0.0555, 10, 88.4]);
      r.simin = Number((min * f).toPrecision(6));
      r.simax = Number((max * f).toPrecision(6));
      if (maybe()) r.siminPrecision = Math.floor(rand() * 4);
      if (maybe()) r.simaxPrecision = Math.floor(rand() * 4);
    }
    r.sex = pick(['all', 'male', 'female']);
    if (maybe(0.7)) r.ageMin = pick([0, 0.5, 1, 18, 65]);
    if (maybe(0.5)) r.ageMax = pick([120, 130]);
    return r;
  };
  return Array.from({ length: count }, (_, i) => {
    const type = pick(TYPES);
    const m: Record<string, unknown> = {
      test: `tst_gen_${i % 37}`,
      name: `Measure ${i} – µ ${pick(['α', 'β', ''])}`.trim(),
    };
    if (maybe(0.9)) m.type = type;
    if (type === 'multiplechoice' || type === 'checklist') {
      m.type = type;
      m.choices = Array.from({ length: 1 + Math.floor(rand() * 4) }, (_, k) => `choice ${k}`);
    }
    if (maybe(0.8)) m.unit = pick(UNITS);
    if (maybe(0.6)) m.siunit = pick(UNITS);
    if (maybe(0.5)) m.set = pick(['Panel A', 'Panel B']);
    if (maybe(0.3)) m.sets = maybe(0.2) ? [] : ['Panel A', 'Panel C'];
    if (maybe(0.4)) m.description = pick(['Serum, fasting', 'Trübung "sichtbar"', 'line one\nline two']);
    if (maybe(0.8)) m.hl7IdentifierCod = `${1000 + i}-${i % 10}`;
    if (maybe(0.8)) m.hl7IdentifierSys = pick(SYSTEMS);
    if (maybe(0.3)) {
      m.numericBreakdownMin = decimal(0, 10, 1);
      m.numericBreakdownMax = Number(((m.numericBreakdownMin as number) + 5).toFixed(1));
    }
    if (maybe(0.3)) m.section = pick(SECTIONS);
    if (maybe(0.4)) m.account = `acc_${i % 3}`;
    if (maybe(0.4)) m.facility = `fac_${i % 4}`;
    if (maybe(0.7)) m.referenceRanges = Array.from({ length: Math.floor(rand() * 4) }, () => range(true));
    if (maybe(0.5)) m.panicRanges = Array.from({ length: Math.floor(rand() * 3) }, () => range(false));
    return m;
  });
}
