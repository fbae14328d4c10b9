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

/** Each end of a range: its bound, the bound's precision, the SI bound and its precision. */
const ENDS = [
  ['min', 'minPrecision', 'simin', 'siminPrecision'],
  ['max', 'maxPrecision', 'simax', 'simaxPrecision'],
] as const;

/**
 * A range set anew from the parts of its short form given (`next`, read from `spec`): each part given
 * replaces the range's, each not given is kept, so a set never widens a band to everyone unasked. The limits
 * are one part: an end they leave out is dropped, and `note` says so. SI bounds restate the limits, so a
 * limit changed without `si=` drops its SI bound; one given again unchanged (a precision added) keeps it.
 */
function setRange(old: RangeLike, spec: string[], next: RangeLike, o: { panic: boolean; note: (t: string) => void }) {
  const given = new Set(spec.map((part) => (part.includes('=') ? part.split('=')[0] : 'limits')));
  const out: Record<string, unknown> = {};
  for (const [part, fields] of Object.entries(PARTS))
    if (!given.has(part) && !(part === 'si' && given.has('limits')))
      for (const f of fields) if (old[f] !== undefined) out[f] = old[f];
  for (const [bound, , si, siPrecision] of ENDS) {
    if (!given.has('limits') || given.has('si') || old[si] === undefined || next[bound] !== old[bound]) continue;
    out[si] = old[si];
    if (old[siPrecision] !== undefined) out[siPrecision] = old[siPrecision];
  }
  Object.assign(out, next);
  for (const [bound, precision, si, siPrecision] of ENDS) {
    if (given.has('limits') && old[bound] !== undefined && next[bound] === undefined) {
      const end =
        bound === 'min' ? (o.panic ? 'critical low limit' : 'low end') : o.panic ? 'critical high limit' : 'high end';
      o.note(`its ${end} ${old[bound]} is dropped, as "${spec[0]}" gives none; give both ends to keep it`);
    }
    // A precision is of a bound: with none, it says nothing.
    if (out[bound] === undefined) delete out[precision];
    if (out[si] === undefined) delete out[siPrecision];
  }
  return { ...out, ...(old.id && !o.panic ? { id: old.id } : {}) } as RangeLike;
}

/**
 * The new list of ranges: `current` with ranges set in place (setRange), removed, then added; or, with
 * replace, the given ones alone. Panic ranges carry no id. `note` is told what a set drops unasked.
 */
export function applyRangeVerbs(
  current: RangeLike[],
  v: RangeVerbs,
  flag: string,
  panic: boolean,
  note: (text: string) => void = () => {},
): RangeLike[] {
  const parse = (spec: string, f: string) => {
    const r = parseRangeSpec(spec, f, panic);
    if (panic && r.id !== undefined) throw new UsageError(`${f}: a panic range has no id; leave out id=${r.id}`);
    return r;
  };
  // Replaced ranges keep the ids of the stored ones for the same people (range-ids.ts).
  if (v.replace !== undefined)
    return withStoredIds(
      v.replace.map((s) => parse(s, `--replace-${flag}s`)),
      panic ? [] : current,
    ) as RangeLike[];
  const out = [...current];
  const touched = new Map<number, string>();
  const once = (at: number, what: string) => {
    const before = touched.get(at);
    if (before) throw new UsageError(`range ${at + 1} is named by ${before} and by ${what}; name each range once`);
    touched.set(at, what);
  };
  for (const entry of v.set) {
    const [target, ...spec] = entry.trim().split(/\s+/);
    const f = `--set-${flag}`;
    if (!target || spec.length === 0)
      throw new UsageError(`${f} needs the range's place or id, then the range, as in "2 3.5-5.1 sex=male"`);
    const at = find(out, target, f);
    once(at, `${f} "${entry.trim()}"`);
    const next = parse(spec.join(' '), f);
    if (next.id !== undefined && next.id !== out[at].id)
      throw new UsageError(`${f}: a set keeps the range's id; leave out id=${next.id}`);
    out[at] = setRange(out[at], spec, next, { panic, note: (t) => note(`${f} ${target}: ${t}`) });
  }
  const gone = new Set(
    v.remove.map((target) => {
      const at = find(current, target, `--remove-${flag}`);
      once(at, `--remove-${flag} ${target}`);
      return at;
    }),
  );
  const kept = out.filter((_, i) => !gone.has(i));
  const added = v.add.map((s) => parse(s, `--add-${flag}`));
  // An id of digits would read as a place here (that an id names one range is the schema's rule).
  const digits = added.find((r) => r.id !== undefined && /^\d+$/.test(r.id));
  if (digits) throw new UsageError(`--add-${flag}: id=${digits.id} would read as a place; give an id with a letter`);
  return [...kept, ...added];
}
