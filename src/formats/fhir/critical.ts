import { meet } from '../../core/interpret.js';
import type { Warning } from '../../core/lint.js';
import { decimalsOf } from '../../core/number.js';
import type { RangeLike } from '../../core/ranges.js';
import type { Rec } from '../json/record.js';

/**
 * The two readings of a FHIR `critical` interval. FHIR R4 defines the category as the range outside of which
 * results are critical (http://terminology.hl7.org/CodeSystem/observation-range-category: "Critical Range for
 * Ordinal and Continuous Observations. Results outside this range are critical."): its low and high are the
 * critical limits, as our panic ranges hold them. Some systems (Medplum's findObservationInterval among them)
 * write the zone of critical values instead, one-sided, with `condition` "Critical Low" (high: 20) and
 * "Critical High" (low: 100).
 */

/** An interval's `condition` that names an interpretation, not whom the range is for. */
export function interpretationOf(condition: unknown): string | undefined {
  const text =
    typeof condition === 'string'
      ? condition
          .trim()
          .toLowerCase()
          .replace(/[-_\s]+/g, ' ')
      : undefined;
  return text && ['normal', 'low', 'high', 'critical low', 'critical high'].includes(text) ? text : undefined;
}

/** A critical interval read, before it is known which reading it is: its range, where it came from. */
export interface CriticalRead {
  r: Rec;
  at: string;
  interpretation?: string;
}

const SYSTEMS = [
  ['min', 'max'],
  ['simin', 'simax'],
] as const;

const PAIRS = [
  ['min', 'max'],
  ['simin', 'simax'],
  ['minPrecision', 'maxPrecision'],
  ['siminPrecision', 'simaxPrecision'],
] as const;

/**
 * A bound one step of its precision further (`toward` +1 or -1): its precision field, else the decimals it is
 * written with. 20 at precision 0 is 21, 2.5 is 2.6: the first result a lab reporting at that precision
 * writes past it.
 */
function stepped(r: Rec, bound: string, toward: 1 | -1): void {
  const v = r[bound];
  if (typeof v !== 'number') return;
  const p = typeof r[`${bound}Precision`] === 'number' ? (r[`${bound}Precision`] as number) : decimalsOf(v);
  r[bound] = Number((v + toward * 10 ** -p).toFixed(p));
}

/**
 * A zone of critical values as the equivalent limit, and back. A FHIR Range's ends are inclusive (R4 Range:
 * "The low and high values are inclusive"), so a low zone up to 20 holds 20 itself; a panic limit is not
 * critical (its range is FHIR's `critical` interval, inclusive too). At the end's precision, the zone up to 20
 * is the limit 21 (critical below 21), and the limit 21 the zone up to 20: each way one step, so both readers
 * agree on every result written at that precision.
 */
function zoneToLimit(r: Rec): void {
  for (const [lo, hi] of PAIRS) [r[lo], r[hi]] = [r[hi], r[lo]];
  for (const k of Object.keys(r)) if (r[k] === undefined) delete r[k];
  // Either way a low end moves up a step and a high end down: the zone up to 20 is the limit 21, and back.
  for (const [lo, hi] of SYSTEMS) {
    stepped(r, lo, 1);
    stepped(r, hi, -1);
  }
}

const lowOf = (r: RangeLike) => r.min ?? r.simin;
const highOf = (r: RangeLike) => r.max ?? r.simax;
const bothSided = (r: RangeLike) =>
  (r.min !== undefined || r.simin !== undefined) && (r.max !== undefined || r.simax !== undefined);

/**
 * Decides each critical interval's reading against the reference ranges for the same people: limits, as FHIR
 * defines them, unless it can only be a zone (its condition says critical low or high, or it is one-sided and
 * lies wholly beyond a reference range), which becomes the equivalent limit with a note. One that fits neither
 * reading is kept as limits with a warning naming the entry. Without `judge` (our own export), only the
 * condition decides.
 */
export function readCritical(read: CriticalRead[], reference: RangeLike[], warnings: Warning[], judge = true): void {
  for (const { r, at, interpretation } of read) {
    const refs = reference.filter((x) => meet(x, r as RangeLike));
    const c = r as RangeLike;
    const [low, high] = [lowOf(c), highOf(c)];
    // Conventional bounds against conventional ones, SI against SI.
    const beyond = (side: 'low' | 'high') =>
      SYSTEMS.some(([lo, hi]) =>
        side === 'low'
          ? c[hi] !== undefined && c[lo] === undefined && refs.some((x) => x[lo] !== undefined && c[hi]! < x[lo]!)
          : c[lo] !== undefined && c[hi] === undefined && refs.some((x) => x[hi] !== undefined && c[lo]! > x[hi]!),
      );
    const [beyondLow, beyondHigh] = judge ? [beyond('low'), beyond('high')] : [false, false];
    const zone =
      interpretation === 'critical low' || interpretation === 'critical high'
        ? interpretation
        : beyondLow
          ? 'critical low'
          : beyondHigh
            ? 'critical high'
            : undefined;
    if (zone !== undefined && !bothSided(r as RangeLike)) {
      const end = zone === 'critical low' ? high : low;
      zoneToLimit(r);
      const limit = zone === 'critical low' ? lowOf(c) : highOf(c);
      const why = interpretation ? `condition "${interpretation}"` : 'it lies wholly beyond the reference range';
      const side = zone === 'critical low' ? 'below' : 'above';
      warnings.push({
        field: at,
        message:
          `read as a zone of critical values (${why}), its end included as FHIR's Range includes it: critical at ` +
          `${end} and ${side}; held as the critical limit: critical ${side} ${limit}`,
      });
      continue;
    }
    const misfit = refs.find((x) =>
      SYSTEMS.some(
        ([lo, hi]) =>
          (c[lo] !== undefined && x[lo] !== undefined && c[lo]! > x[lo]!) ||
          (c[hi] !== undefined && x[hi] !== undefined && c[hi]! < x[hi]!),
      ),
    );
    if (misfit && judge) {
      warnings.push({
        field: at,
        message:
          `as critical limits (FHIR's definition, as kept) it makes results inside the reference range ` +
          `${lowOf(misfit) ?? ''}–${highOf(misfit) ?? ''} critical, and it is not a one-sided zone beyond it; check it`,
      });
    }
  }
}

/** Whom a range is for: its sex (none is all) and its age band. */
const samePeople = (a: Rec, b: Rec) =>
  (a.sex ?? 'all') === (b.sex ?? 'all') && a.ageMin === b.ageMin && a.ageMax === b.ageMax;

/**
 * One side of our own panic range written as zones (`--critical-as zones`, marked with the range's index),
 * read back into that range: the first side read is added to `panic` as its limit, the other's limit joins
 * it. Undefined, taking nothing, for an interval that is not such a side (two-sided, or its condition not the
 * side it holds), a side the range already has, or one for other people (another sex or age band, as a copied
 * interval keeps its index): it is then read as any other critical interval. Else the range it is part of.
 */
export function joinSide(
  sides: Map<number, Rec>,
  index: number,
  zone: Rec,
  condition: string | undefined,
  panic: Rec[],
): Rec | undefined {
  const lowZone = zone.max !== undefined || zone.simax !== undefined;
  const highZone = zone.min !== undefined || zone.simin !== undefined;
  if (lowZone === highZone || condition !== (lowZone ? 'critical low' : 'critical high')) return undefined;
  const limit = { ...zone };
  zoneToLimit(limit);
  const first = sides.get(index);
  if (!first) {
    sides.set(index, limit);
    panic.push(limit);
    return limit;
  }
  const bounds = PAIRS.flat().filter((k) => limit[k] !== undefined);
  if (!samePeople(first, limit) || bounds.some((k) => first[k] !== undefined)) return undefined;
  for (const k of bounds) first[k] = limit[k];
  return first;
}

/**
 * A side joined into a panic range is named by its own interval: a low zone's high is the range's min, a
 * high zone's low its max. What the second side noted under the place it would have had as a range goes.
 */
export function joinedPaths(paths: Record<string, string>, own: string, range: string, at: string, side?: string) {
  if (own !== range) for (const k of Object.keys(paths)) if (k === own || k.startsWith(`${own}.`)) delete paths[k];
  if (side === 'critical low') paths[`${range}.min`] = `${at}.range.high.value`;
  else paths[`${range}.max`] = `${at}.range.low.value`;
}

/**
 * A panic range as one-sided zones of critical values (`--critical-as zones`), for consumers that read
 * `critical` intervals as Medplum does: critical below 2.5 is the zone up to 2.5, "Critical low".
 */
export function zonesOf(r: Rec): { r: Rec; condition: string }[] {
  const out: { r: Rec; condition: string }[] = [];
  const keep = (keys: string[]) =>
    Object.fromEntries(Object.entries(r).filter(([k]) => !PAIRS.flat().includes(k as never) || keys.includes(k)));
  if (r.min !== undefined || r.simin !== undefined) {
    const z = keep(['min', 'simin', 'minPrecision', 'siminPrecision']);
    zoneToLimit(z);
    out.push({ r: z, condition: 'Critical low' });
  }
  if (r.max !== undefined || r.simax !== undefined) {
    const z = keep(['max', 'simax', 'maxPrecision', 'simaxPrecision']);
    zoneToLimit(z);
    out.push({ r: z, condition: 'Critical high' });
  }
  return out;
}
