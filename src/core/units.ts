import { lintMeasure, type Warning } from './lint.js';
import { decimalsOf as decimals } from './number.js';
import type { RangeLike } from './ranges.js';

interface MeasureLike {
  unit?: unknown;
  siunit?: unknown;
  hl7IdentifierCod?: unknown;
  hl7IdentifierSys?: unknown;
  referenceRanges?: RangeLike[];
  panicRanges?: RangeLike[];
}

/** UCUM, as the NLM's library knows it (https://ucum.org/ucum). */
interface Ucum {
  /** undefined when valid; else the UCUM spelling to suggest, or '' when there is none. */
  invalid(unit: string): string | undefined;
  /** How many of `to` one `from` is, when the two are commensurable; undefined when they are not. */
  factor(from: string, to: string): number | undefined;
}

/** How labs commonly write units that UCUM spells otherwise (UCUM is case-sensitive: E is exa, mc is not micro). */
const LAB_FORMS: Record<string, string> = {
  // UCUM's micro is u: µmol/L, µg/L, µL (with the micro sign or the Greek mu) and mcg, mcL, mcmol.
  µ: 'u',
  μ: 'u',
  mc: 'u',
  cc: 'mL',
  hr: 'h',
  mEq: 'meq',
  mcg: 'ug',
  mIU: 'm[IU]',
  uIU: 'u[IU]',
  IU: '[IU]',
  'x10^3': '10*3',
  'x10^6': '10*6',
  'x10^9': '10*9',
  'x10^12': '10*12',
};

/** The NLM's UCUM library, bundled, loaded once and only when a unit is checked. */
export async function loadUcum(): Promise<Ucum> {
  const mod = (await import('@lhncbc/ucum-lhc')) as typeof import('@lhncbc/ucum-lhc') & {
    default?: typeof import('@lhncbc/ucum-lhc');
  };
  const utils = (mod.UcumLhcUtils ?? (mod.default as typeof mod).UcumLhcUtils).getInstance();
  const seen = new Map<string, string | undefined>();
  const factors = new Map<string, number | undefined>();
  return {
    invalid(unit) {
      if (seen.has(unit)) return seen.get(unit);
      let out: string | undefined;
      const r = utils.validateUnitString(unit, true);
      if (r.status !== 'valid') {
        const lab = unit.replace(
          /x10\^\d+|mEq|mcg|mIU|uIU|IU(?!\])|[µμ]|mc(?=[Lm])|\bcc\b|\bhr\b/g,
          (m) => LAB_FORMS[m] ?? m,
        );
        const labValid = lab !== unit && utils.validateUnitString(lab).status === 'valid';
        out = labValid ? lab : (r.ucumCode ?? r.suggestions?.[0]?.units?.[0]?.[0] ?? '');
      }
      seen.set(unit, out);
      return out;
    },
    factor(from, to) {
      // Asked once a record: an import of 10,000 measures has a handful of unit pairs.
      const key = `${from}\u0000${to}`;
      if (!factors.has(key)) {
        const r = utils.convertUnitTo(from, 1, to);
        factors.set(key, r.status === 'succeeded' && typeof r.toVal === 'number' ? r.toVal : undefined);
      }
      return factors.get(key);
    },
  };
}

const round = (n: number, d: number) => Number(n.toFixed(d));

/**
 * The LOINC check digit of a code's number, by LOINC's mod 10 algorithm (the Luhn algorithm): from the right,
 * double every other digit starting with the last, add the digits, and take what brings the sum to a
 * multiple of 10.
 */
export function loincCheckDigit(number: string): number {
  let sum = 0;
  for (let i = number.length - 1, double = true; i >= 0; i--, double = !double) {
    let d = Number(number[i]) * (double ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

const PAIRS = [
  ['min', 'simin', 'siminPrecision'],
  ['max', 'simax', 'simaxPrecision'],
] as const;

/**
 * Units and codes as the field checks them: `unit` and `siunit` valid UCUM (a common lab spelling gets
 * UCUM's); each range's SI bounds what its conventional ones give in the SI unit, rounded as the SI bound
 * is written (by UCUM's factor where the units are commensurable, else by one factor for every range, as
 * mg/dL and mmol/L are through a molecular weight); a LOINC code's check digit.
 */
export function unitWarnings(m: MeasureLike, ucum: Ucum): Warning[] {
  const out: Warning[] = [];
  const valid: Record<string, string> = {};
  for (const field of ['unit', 'siunit'] as const) {
    const unit = m[field];
    if (typeof unit !== 'string' || unit.trim() === '') continue;
    const suggestion = ucum.invalid(unit);
    if (suggestion === undefined) valid[field] = unit;
    else
      out.push({
        field,
        message: `"${unit}" is not valid UCUM${suggestion ? `; UCUM writes it ${suggestion}` : ''}`,
      });
  }
  const pairs: { c: number; s: number; d: number; field: string }[] = [];
  for (const [list, ranges] of [
    ['referenceRanges', m.referenceRanges ?? []],
    ['panicRanges', m.panicRanges ?? []],
  ] as const) {
    ranges.forEach((r, i) => {
      for (const [conv, si, precision] of PAIRS) {
        const c = r[conv];
        const s = r[si];
        if (c === undefined || s === undefined) continue;
        const d = (r as Record<string, number | undefined>)[precision] ?? decimals(s);
        pairs.push({ c, s, d, field: `${list}[${i}].${si}` });
      }
    });
  }
  if (valid.unit && valid.siunit && pairs.length > 0) {
    const f = ucum.factor(valid.unit, valid.siunit);
    if (f !== undefined) {
      for (const p of pairs) {
        const expected = round(p.c * f, p.d);
        if (expected !== p.s)
          out.push({
            field: p.field,
            message:
              `${p.s} is not ${p.c} ${valid.unit} in ${valid.siunit}, which is ${expected} ` +
              `(UCUM: 1 ${valid.unit} = ${f} ${valid.siunit})`,
          });
      }
    } else {
      // Not commensurable: one factor must explain every pair, each SI bound rounded as it is written.
      let [lo, hi] = [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];
      for (const p of pairs) {
        if (p.c === 0) continue;
        const half = 0.5 * 10 ** -p.d;
        const [a, b] = [(p.s - half) / p.c, (p.s + half) / p.c].sort((x, y) => x - y);
        if (Math.max(lo, a) > Math.min(hi, b)) {
          const mid = Number.isFinite(lo) && Number.isFinite(hi) ? (lo + hi) / 2 : lo;
          out.push({
            field: p.field,
            message:
              `${p.s} does not follow from ${p.c} by the factor the other ranges share ` +
              `(${valid.unit} to ${valid.siunit}); it would be ${round(p.c * mid, p.d)}`,
          });
          continue;
        }
        [lo, hi] = [Math.max(lo, a), Math.min(hi, b)];
      }
    }
  }
  const sys = m.hl7IdentifierSys;
  const code = m.hl7IdentifierCod;
  if ((sys === 'LN' || sys === 'http://loinc.org') && typeof code === 'string') {
    const parts = /^(\d{1,7})-(\d)$/.exec(code);
    if (!parts)
      out.push({ field: 'hl7IdentifierCod', message: `${code} is not a LOINC code (digits, a dash, a check digit)` });
    else if (loincCheckDigit(parts[1]) !== Number(parts[2]))
      out.push({
        field: 'hl7IdentifierCod',
        message:
          `${code} has a wrong LOINC check digit: ` +
          `${parts[1]}-${loincCheckDigit(parts[1])} is the code with that number`,
      });
  }
  return out;
}

/** The whole check of a measure: clinical sense (lint.ts), then units and codes; UCUM loaded once. */
export async function measureLinter(): Promise<(m: MeasureLike & Parameters<typeof lintMeasure>[0]) => Warning[]> {
  const ucum = await loadUcum();
  return (m) => [...lintMeasure(m), ...unitWarnings(m, ucum)];
}
