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

/**
 * The new list of ranges: `current` with ranges set in place (keeping their ids), removed, then added;
 * or, with replace, the given ones alone. Panic ranges carry no id.
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
    const id = out[at].id;
    out[at] = { ...parse(spec.join(' '), `--set-${flag}`), ...(id && !panic ? { id } : {}) };
  }
  const gone = new Set(v.remove.map((target) => find(current, target, `--remove-${flag}`)));
  const kept = out.filter((_, i) => !gone.has(i));
  return [...kept, ...v.add.map((s) => parse(s, `--add-${flag}`))];
}
