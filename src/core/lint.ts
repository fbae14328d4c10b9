import type { RangeLike } from './ranges.js';

export interface Warning {
  field: string;
  message: string;
}

interface MeasureLike {
  type?: string;
  unit?: string;
  referenceRanges?: RangeLike[];
  panicRanges?: RangeLike[];
}

const decimals = (n: number) => {
  const s = String(n);
  const e = s.indexOf('e-');
  if (e !== -1) return Number(s.slice(e + 2));
  const dot = s.indexOf('.');
  return dot === -1 ? 0 : s.length - dot - 1;
};

// Each bound with its precision field, spelled once rather than built per record (an import lints thousands).
const BOUNDS = [
  ['min', 'minPrecision'],
  ['max', 'maxPrecision'],
  ['simin', 'siminPrecision'],
  ['simax', 'simaxPrecision'],
] as const;

const ageBand = (r: RangeLike): [number, number] => [r.ageMin ?? 0, r.ageMax ?? Number.POSITIVE_INFINITY];
const overlaps = (a: [number, number], b: [number, number]) => a[0] <= b[1] && b[0] <= a[1];
const sexMatches = (a?: string, b?: string) => (a ?? 'all') === 'all' || (b ?? 'all') === 'all' || a === b;

/** What a careful lab admin wants to see before publishing a measure; none of it stops an import. */
export function lintMeasure(m: MeasureLike): Warning[] {
  const out: Warning[] = [];
  const refs = m.referenceRanges ?? [];
  const panics = m.panicRanges ?? [];

  if (m.type === 'numeric' && !m.unit) out.push({ field: 'unit', message: 'a numeric measure has no unit' });

  for (let i = 0; i < refs.length; i++) {
    for (let j = i + 1; j < refs.length; j++) {
      if ((refs[i].sex ?? 'all') === (refs[j].sex ?? 'all') && overlaps(ageBand(refs[i]), ageBand(refs[j]))) {
        out.push({
          field: `referenceRanges[${j}]`,
          message: `its age band overlaps referenceRanges[${i}] for sex ${refs[i].sex ?? 'all'}`,
        });
      }
    }
  }

  // Ages are whole years: 0–17 then 18–120 leave no gap; 0–17 then 19–120 leave 17–19 uncovered.
  const bySex = new Map<string, { r: RangeLike; i: number }[]>();
  refs.forEach((r, i) => {
    const sex = r.sex ?? 'all';
    bySex.set(sex, [...(bySex.get(sex) ?? []), { r, i }]);
  });
  for (const [sex, bands] of bySex) {
    const sorted = [...bands].sort((a, b) => ageBand(a.r)[0] - ageBand(b.r)[0]);
    let covered = ageBand(sorted[0].r)[1];
    for (const { r, i } of sorted.slice(1)) {
      const [from, to] = ageBand(r);
      if (from > covered + 1) {
        out.push({
          field: `referenceRanges[${i}]`,
          message: `ages ${covered}–${from} are not covered for sex ${sex}: the bands before it end at ${covered}`,
        });
      }
      covered = Math.max(covered, to);
    }
  }

  panics.forEach((p, pi) => {
    refs.forEach((r, ri) => {
      if (!sexMatches(p.sex, r.sex) || !overlaps(ageBand(p), ageBand(r))) return;
      for (const [lo, hi] of [
        ['min', 'max'],
        ['simin', 'simax'],
      ] as const) {
        const pl = p[lo];
        const ph = p[hi];
        const rl = r[lo];
        const rh = r[hi];
        if (rl === undefined && rh === undefined) continue;
        const low = ph !== undefined && pl === undefined; // a low panic: below it is critical
        const high = pl !== undefined && ph === undefined;
        const inside =
          (low && rl !== undefined && ph! > rl) ||
          (high && rh !== undefined && pl! < rh) ||
          (pl !== undefined &&
            ph !== undefined &&
            pl < (rh ?? Number.POSITIVE_INFINITY) &&
            ph > (rl ?? Number.NEGATIVE_INFINITY));
        if (inside) {
          out.push({
            field: `panicRanges[${pi}].${low ? hi : lo}`,
            message:
              `the panic range does not lie outside referenceRanges[${ri}] ` +
              `(${rl ?? ''}–${rh ?? ''} ${lo === 'min' ? 'conventional' : 'SI'})`,
          });
        }
      }
    });
  });

  // Conventional and SI bounds must order the same way: a higher conventional bound means a higher SI one.
  // Field names are spelled out only for a warning: an import lints thousands of records.
  const pairs: { conv: number; si: number; list: string; at: number; bound: string }[] = [];
  const collect = (list: RangeLike[], name: string) =>
    list.forEach((r, i) => {
      if (r.min !== undefined && r.simin !== undefined)
        pairs.push({ conv: r.min, si: r.simin, list: name, at: i, bound: 'simin' });
      if (r.max !== undefined && r.simax !== undefined)
        pairs.push({ conv: r.max, si: r.simax, list: name, at: i, bound: 'simax' });
    });
  collect(refs, 'referenceRanges');
  collect(panics, 'panicRanges');
  const fieldOf = (p: (typeof pairs)[number]) => `${p.list}[${p.at}].${p.bound}`;
  const reported = new Set<string>();
  for (let i = 0; i < pairs.length; i++) {
    for (let j = i + 1; j < pairs.length; j++) {
      const a = pairs[i];
      const b = pairs[j];
      if (Math.sign(a.conv - b.conv) * Math.sign(a.si - b.si) < 0 && !reported.has(fieldOf(b))) {
        reported.add(fieldOf(b));
        const cmp = (x: number, y: number) => (x < y ? '<' : '>');
        out.push({
          field: fieldOf(b),
          message:
            `SI and conventional bounds disagree in direction with ${fieldOf(a)}: ` +
            `conventional ${a.conv} ${cmp(a.conv, b.conv)} ${b.conv} but SI ${a.si} ${cmp(a.si, b.si)} ${b.si}`,
        });
      }
    }
  }

  const precisionOf = (list: RangeLike[], name: string) =>
    list.forEach((r, i) => {
      const rr = r as Record<string, number | undefined>;
      for (const [bound, precisionField] of BOUNDS) {
        const value = rr[bound];
        const precision = rr[precisionField];
        if (value !== undefined && precision !== undefined && decimals(value) > precision) {
          out.push({
            field: `${name}[${i}].${bound}`,
            message: `${value} has more decimals than its stated precision ${precision}`,
          });
        }
      }
    });
  precisionOf(refs, 'referenceRanges');
  precisionOf(panics, 'panicRanges');
  return out;
}
