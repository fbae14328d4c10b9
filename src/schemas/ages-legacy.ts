import { type AgeUnit, canon, exactYears, PER_YEAR } from './ages.js';

// How clinadmin before data file format 2 stored an age band, read so that old data (serve's data file,
// FHIR exports that carry the `age-years` extension) keeps its meaning under the one convention of ages.ts.
// An edge was the years of a count of units, and where a larger unit stood for the same number (24 h is
// 1 d, 12 mo is 1 y, 2 wk is 14 d) the next double up, so that the unit survived in the last bit; a band
// [min, max] held every age whose completed count of each edge's unit lay in it (max was the last one).

const CLAIM_ORDER: AgeUnit[] = ['y', 'mo', 'd', 'wk', 'h'];

function nextUp(x: number): number {
  const f = new Float64Array([x]);
  new BigInt64Array(f.buffer)[0] += 1n;
  return f[0];
}

const claimedBefore = (years: number, unit: AgeUnit): boolean =>
  CLAIM_ORDER.slice(0, CLAIM_ORDER.indexOf(unit)).some((u) => {
    const count = Math.round(years * PER_YEAR[u]);
    return count > 0 && legacyYears(count, u) === years;
  });

/** The number the old format stored for `count` units (exported for the tests that write old files). */
export function legacyYears(count: number, unit: AgeUnit): number {
  let years = exactYears(count, unit);
  if (!Number.isInteger(count) || count <= 0) return years;
  for (let step = 0; step < 8 && claimedBefore(years, unit); step++) years = nextUp(years);
  return claimedBefore(years, unit) ? exactYears(count, unit) : years;
}

const decimals = (n: number): number => {
  const s = String(n);
  const e = s.indexOf('e-');
  const dot = s.indexOf('.');
  if (e !== -1) return Number(s.slice(e + 2)) + (dot === -1 ? 0 : s.indexOf('e') - dot - 1);
  return dot === -1 ? 0 : s.length - dot - 1;
};

/** The count and unit the old format read from a stored number, as it read them; undefined: none fits. */
function legacyEdge(years: number): { count: number; unit: AgeUnit } | undefined {
  if (years === 0) return { count: 0, unit: 'y' };
  for (const unit of CLAIM_ORDER) {
    const count = Math.round(years * PER_YEAR[unit]);
    if (count > 0 && legacyYears(count, unit) === years) return { count, unit };
  }
  // A decimal year as a person wrote it: 0.0767 read as 28 d, 0.5 as 6 mo.
  const half = 0.5 * 10 ** -decimals(years) * (1 + 1e-9);
  for (const unit of ['y', 'mo', 'd', 'h'] as const) {
    const count = Math.round(years * PER_YEAR[unit]);
    if (count > 0 && Math.abs(exactYears(count, unit) - years) <= half) return { count, unit };
  }
  return undefined;
}

/** An old band's ends as exact years: its start, and the first age past its last completed unit. */
export function fromLegacy(
  ageMin: number | undefined,
  ageMax: number | undefined,
): [number | undefined, number | undefined] {
  const lo = ageMin === undefined ? undefined : legacyEdge(ageMin);
  const hi = ageMax === undefined ? undefined : legacyEdge(ageMax);
  return [
    ageMin === undefined ? undefined : canon(lo ? exactYears(lo.count, lo.unit) : ageMin),
    // An end no count fitted was held up to that age itself; it stays the end.
    ageMax === undefined ? undefined : canon(hi ? exactYears(hi.count + 1, hi.unit) : ageMax),
  ];
}

/** The ranges of a measure record from an old data file, moved to the one convention in place; whether any had ages. */
export function migrateMeasure(record: Record<string, unknown>): boolean {
  let banded = false;
  for (const list of ['referenceRanges', 'panicRanges']) {
    const ranges = record[list];
    if (!Array.isArray(ranges)) continue;
    for (const r of ranges as Record<string, unknown>[]) {
      if (r === null || typeof r !== 'object') continue;
      const [a, b] = [r.ageMin, r.ageMax].map((v) => (typeof v === 'number' ? v : undefined));
      if (a === undefined && b === undefined) continue;
      banded = true;
      const [lo, hi] = fromLegacy(a, b);
      if (lo !== undefined) r.ageMin = lo;
      if (hi !== undefined) r.ageMax = hi;
    }
  }
  return banded;
}
