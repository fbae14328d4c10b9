import type { Rec } from '../formats/json/record.js';
import { EPSILON, spanOf } from './ages.js';

const sameBand = (a: Rec, b: Rec) => {
  const [x, y] = [spanOf(a.ageMin as number, a.ageMax as number), spanOf(b.ageMin as number, b.ageMax as number)];
  return (
    (a.sex ?? 'all') === (b.sex ?? 'all') &&
    Math.abs(x[0] - y[0]) < EPSILON &&
    (x[1] === y[1] || Math.abs(x[1] - y[1]) < EPSILON)
  );
};
const sameLimits = (a: Rec, b: Rec) =>
  (a.sex ?? 'all') === (b.sex ?? 'all') &&
  a.min === b.min &&
  a.max === b.max &&
  a.simin === b.simin &&
  a.simax === b.simax;

/**
 * The reference ranges given, each without an id taking the id of the stored range for the same people (same
 * sex and age band, the one with the same limits first), else of the stored one with the same sex and limits;
 * never the id of the range that happens to stand at its place, so an id stays with its band.
 */
export function withStoredIds(given: unknown, stored: unknown): unknown {
  if (!Array.isArray(given) || !Array.isArray(stored)) return given;
  const free = (stored as Rec[]).filter((r) => r && typeof r.id === 'string');
  const taken = new Set<unknown>(given.map((r: Rec) => r?.id).filter((id) => id !== undefined));
  const out = [...given];
  const tests = [(a: Rec, b: Rec) => sameBand(a, b) && sameLimits(a, b), sameBand, sameLimits];
  for (const test of tests) {
    out.forEach((r: Rec, i) => {
      if (!r || typeof r !== 'object' || r.id !== undefined) return;
      const match = free.find((s) => !taken.has(s.id) && test(r, s));
      if (match) {
        taken.add(match.id);
        out[i] = { id: match.id, ...r };
      }
    });
  }
  return out;
}
