import { UsageError } from '../errors.js';
import { withStoredIds } from './range-ids.js';
import { parseRangeSpec, type RangeLike } from './ranges.js';

/** What `update` was asked to do to one list of ranges. */
export interface RangeVerbs {
  add: string[];
  /** `N SPEC` or `ID SPEC`: the range's place (from 1) or id, then its new short form. */
  set: string[];
  /** `N` or `ID`. */
  remove: string[];
  /** Every range anew (replace-all). */
  replace?: string[];
}

export const hasVerbs = (v: RangeVerbs) => v.add.length + v.set.length + v.remove.length > 0 || v.replace !== undefined;

/** The index of the range `target` names: its place counting from 1, or its id. */
function find(ranges: RangeLike[], target: string, flag: string): number {
  const place = /^\d+$/.test(target) ? Number(target) - 1 : ranges.findIndex((r) => r.id === target);
  if (place < 0 || place >= ranges.length) {
    const known = ranges.map((r, i) => (r.id ? `${i + 1} (${r.id})` : String(i + 1))).join(', ') || 'none';
    throw new UsageError(`${flag}: no range ${target}; the ranges are ${known}`);
  }
  return place;
}

/** What of a range each part of the short form gives, and what it keeps when that part is not given. */
const PARTS = {
  limits: ['min', 'max', 'minPrecision', 'maxPrecision'],
  si: ['simin', 'simax', 'siminPrecision', 'simaxPrecision'],
  sex: ['sex'],
  age: ['ageMin', 'ageMax'],
} as const;

/**
 * A range set anew from the parts of its short form given (`next`, read from `spec`): each part given
 * replaces the range's, each not given is kept, so a set never widens a band to everyone unasked. SI bounds
 * restate the limits, so new limits without `si=` drop the old ones. The id is kept.
 */
function setRange(old: RangeLike, spec: string[], next: RangeLike, panic: boolean): RangeLike {
  const given = new Set(spec.map((part) => (part.includes('=') ? part.split('=')[0] : 'limits')));
  if (given.has('limits')) given.add('si');
  const kept: Record<string, unknown> = {};
  for (const [part, fields] of Object.entries(PARTS))
    if (!given.has(part)) for (const f of fields) if (old[f] !== undefined) kept[f] = old[f];
  return { ...kept, ...next, ...(old.id && !panic ? { id: old.id } : {}) };
}

/**
 * The new list of ranges: `current` with ranges set in place (setRange), removed, then added; or, with
 * replace, the given ones alone. Panic ranges carry no id.
 */
export function applyRangeVerbs(current: RangeLike[], v: RangeVerbs, flag: string, panic: boolean): RangeLike[] {
  const parse = (spec: string, f: string) => {
    const r = parseRangeSpec(spec, f, panic);
    if (panic) delete r.id;
    return r;
  };
  // Replaced ranges keep the ids of the stored ones for the same people (range-ids.ts).
  if (v.replace !== undefined)
    return withStoredIds(
      v.replace.map((s) => parse(s, `--replace-${flag}s`)),
      panic ? [] : current,
    ) as RangeLike[];
  const out = [...current];
  for (const entry of v.set) {
    const [target, ...spec] = entry.trim().split(/\s+/);
    if (!target || spec.length === 0)
      throw new UsageError(`--set-${flag} needs the range's place or id, then the range, as in "2 3.5-5.1 sex=male"`);
    const at = find(out, target, `--set-${flag}`);
    out[at] = setRange(out[at], spec, parse(spec.join(' '), `--set-${flag}`), panic);
  }
  const gone = new Set(v.remove.map((target) => find(current, target, `--remove-${flag}`)));
  const kept = out.filter((_, i) => !gone.has(i));
  return [...kept, ...v.add.map((s) => parse(s, `--add-${flag}`))];
}
