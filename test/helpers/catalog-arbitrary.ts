import fc from 'fast-check';
import { canon } from '../../src/schemas/ages.js';
import { measureCreateSchema } from '../../src/schemas/measures.js';
import { MEASURE_TYPE_VALUES } from '../../src/schemas/values.js';

// Catalogs serve accepts, generated over the measure schema (fast-check): every field, absent and empty;
// ranges by sex and age with SI bounds and precisions; ages in every unit and in exact years; limits on one
// side; numbers of 15 to 17 significant digits (what a script's arithmetic stores), negative and zero;
// Unicode and every format's separators in text; choices. Each catalog is checked by the create schema itself,
// so the generator cannot drift from what serve accepts.

type Rec = Record<string, unknown>;

/** Text that holds what each format must escape: CSV's , ; " and line breaks, HL7's | ^ ~ \ &, FHIR's Unicode. */
const PIECES = [
  'Na',
  'µmol',
  'Trübung',
  '血糖',
  'α-β',
  ',',
  ';',
  '"',
  '|',
  '^',
  '~',
  '\\',
  '&',
  "'",
  '=',
  ' ',
  '\n',
  '#',
];
const text = fc
  .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join(''))
  .filter((t) => t.trim() !== '' && t.trim() === t);
/** A name: what nameText keeps (no edge spaces; never only separators). */
const name = fc
  .tuple(fc.constantFrom('Sodium', 'Glucose', 'Ca²⁺', 'Hämoglobin', 'pH'), fc.option(text, { nil: undefined }))
  .map(([a, b]) => (b === undefined ? a : `${a} ${b.replace(/\s+/g, ' ').trim()}`.trim()));

/** Numbers as labs and scripts store them: whole, a few decimals, 15-17 significant digits, zero, negative. */
export const number = fc.oneof(
  fc.integer({ min: -500, max: 500 }),
  fc.integer({ min: -50_000, max: 50_000 }).map((n) => n / 100),
  fc.double({ min: -1e4, max: 1e4, noNaN: true, noDefaultInfinity: true }).filter((x) => x === 0 || Math.abs(x) > 1e-6),
  fc.constantFrom(0, 7.220000000000001, 0.30000000000000004, -0.1, 0.0000001, 3.590710444841534),
);
const precision = fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined });

const YEAR_PARTS = { y: 1, mo: 12, d: 365.25, h: 365.25 * 24 } as const;
/** An age: a whole count of y, mo, d or h as exact years, or exact years as a script computes them. */
const age = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: 0, max: 130 }),
      fc.constantFrom(...(Object.keys(YEAR_PARTS) as (keyof typeof YEAR_PARTS)[])),
    )
    .map(([n, unit]) => n / YEAR_PARTS[unit]),
  fc.double({ min: 0.001, max: 130, noNaN: true }),
  fc.constantFrom(0.0192, 3.590710444841534, 0.5, 17.999999999999996),
);

const sorted = (a?: number, b?: number): [number?, number?] =>
  a !== undefined && b !== undefined && a > b ? [b, a] : [a, b];

const range = fc
  .record(
    {
      min: number,
      max: number,
      simin: number,
      simax: number,
      minPrecision: precision,
      maxPrecision: precision,
      siminPrecision: precision,
      simaxPrecision: precision,
      sex: fc.constantFrom('all', 'male', 'female'),
      ageMin: age,
      ageMax: age,
    },
    { requiredKeys: [] },
  )
  .map((r) => {
    const out: Rec = {};
    const [min, max] = sorted(r.min, r.max);
    const [simin, simax] = sorted(r.simin, r.simax);
    const [ageMin, ageMax] = sorted(r.ageMin, r.ageMax);
    const all = { ...r, min, max, simin, simax, ageMin, ageMax };
    for (const [k, v] of Object.entries(all)) if (v !== undefined) out[k] = v;
    // A precision belongs to a bound it is given with.
    for (const b of ['min', 'max', 'simin', 'simax']) if (out[b] === undefined) delete out[`${b}Precision`];
    // Two ages one age to every reader of 15 digits (schemas/ages.ts canon) make no band; serve takes the
    // raw numbers, so it holds one (a gap left in the report), but no lab writes it.
    if (
      out.ageMin !== undefined &&
      out.ageMax !== undefined &&
      canon(out.ageMin as number) >= canon(out.ageMax as number)
    )
      delete out.ageMax;
    return out;
  })
  .filter((r) => ['min', 'max', 'simin', 'simax'].some((b) => r[b] !== undefined));

const measure = fc
  .record(
    {
      test: fc.constantFrom('tst_a', 'tst_b'),
      name,
      type: fc.constantFrom(...MEASURE_TYPE_VALUES),
      // Distinct, as a ValueSet's codes are (a repeated choice is one answer to FHIR).
      choices: fc.uniqueArray(text, { maxLength: 3 }),
      unit: fc.constantFrom('mmol/L', 'mg/dL', '10*3/uL', '%', 'mEq/L', ''),
      siunit: fc.constantFrom('mmol/L', 'g/L', ''),
      set: fc.oneof(text, fc.constant('')),
      sets: fc.array(text, { maxLength: 2 }),
      description: fc.oneof(text, fc.constant('')),
      hl7IdentifierCod: fc.constantFrom('2951-2', '2345-7', '718-7', ''),
      hl7IdentifierSys: fc.constantFrom('LN', 'http://loinc.org', 'L', ''),
      numericBreakdownMin: number,
      numericBreakdownMax: number,
      referenceRanges: fc.array(range, { maxLength: 3 }),
      panicRanges: fc.array(range, { maxLength: 2 }),
      section: fc.oneof(text, fc.constant(null), fc.constant({ floor: 2 }), fc.constant(['a', 'b'])),
      account: fc.constantFrom('acc_x', 'acc_y'),
      facility: fc.constantFrom('fac_1'),
    },
    { requiredKeys: ['test', 'name'] },
  )
  .map((m) => {
    const out: Rec = { ...m };
    const [lo, hi] = sorted(m.numericBreakdownMin, m.numericBreakdownMax);
    if (lo !== undefined) out.numericBreakdownMin = lo;
    if (hi !== undefined) out.numericBreakdownMax = hi;
    return out;
  })
  .filter((m) => measureCreateSchema.safeParse(m).success && !zoneLike(m));

/**
 * A one-sided critical limit wholly beyond a reference range (`max -39` beside a reference from -0.1) can only
 * be a zone to a FHIR reader without our extensions, and is read so (docs/catalogs.md; lint warns of it): a
 * catalog that means it as a limit is not one a lab writes, so the generator makes none.
 */
function zoneLike(m: Rec): boolean {
  const refs = (m.referenceRanges as Rec[] | undefined) ?? [];
  return ((m.panicRanges as Rec[] | undefined) ?? []).some((p) =>
    refs.some(
      (r) =>
        (p.min === undefined && typeof p.max === 'number' && typeof r.min === 'number' && p.max < r.min) ||
        (p.max === undefined && typeof p.min === 'number' && typeof r.max === 'number' && p.min > r.max),
    ),
  );
}

/** A catalog: one to `max` measures, one per (test, name), as the service keys them. */
export const catalog = (max = 4) =>
  fc.uniqueArray(measure, { minLength: 1, maxLength: max, selector: (m) => `${m.test}\u0000${m.name}` });
