import { isAscii } from 'node:buffer';
import type { Rec } from './record.js';

/**
 * A top-level field a reader needs: its name, and whether it is a list of objects of which only the first
 * is read and the others counted (a table's ranges cell: `3.5–5.1 mmol/L +1`).
 */
export interface Read {
  field: string;
  first?: boolean;
}

/** White space JSON allows between tokens (RFC 8259 §2). */
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * Reads the top-level fields `reads` names of a plain object element (JsonArraySplitter.plain) that holds
 * no escape, each value parsed from its own text, found by the commas the splitter noted
 * (JsonArraySplitter.members): a table of a long list needs a few fields of each record, and parsing only
 * those costs a fraction of the record. A value is what JSON.parse would make of it (a string is its text,
 * as the element holds no escape; anything else goes through JSON.parse), and of two members of one name
 * the last wins, as in JSON.parse. A `first` field that is a list of objects has its first object parsed
 * and each other one stands as an empty object. Undefined when the element is not ASCII or a member named
 * is not plainly `"name":value` (no colon, a value that does not parse): the caller then parses the whole
 * record, which says what is wrong with it. The members not named are passed over unread, as `-o ndjson`
 * passes a plain record on unread.
 */
export function memberPicker(reads: readonly Read[]): (bytes: Buffer, commas: readonly number[]) => Rec | undefined {
  // `__proto__` is never read this way: as a plain assignment it would set the record's prototype.
  if (reads.some((r) => r.field === '__proto__')) return () => undefined;
  const wanted = new Map<string, boolean>();
  for (const r of reads) wanted.set(r.field, (wanted.get(r.field) ?? true) && r.first === true);
  // The names wanted by their first character: most members' names are passed over at one look.
  const byFirst: [string, boolean][][] = Array.from({ length: 128 }, () => []);
  for (const [name, first] of wanted) if (name.charCodeAt(0) < 128) byFirst[name.charCodeAt(0)].push([name, first]);
  // A name outside ASCII (or empty) is never in an ASCII record as it is: such a reader parses records whole.
  if ([...wanted.keys()].some((n) => !/^[\x00-\x7f]+$/.test(n))) return () => undefined;
  return (bytes, commas) => (isAscii(bytes) ? pick(bytes.toString('latin1'), commas, byFirst) : undefined);
}

function pick(s: string, commas: readonly number[], byFirst: readonly [string, boolean][][]): Rec | undefined {
  const out: Rec = {};
  const last = s.length - 1;
  let from = 1;
  for (let m = 0; m < commas.length || from <= last; ) {
    // The member runs to the next top-level comma (a positive offset) or to the closing brace; the
    // negative offsets up to it are the commas one level in (between a list's items).
    let to = last;
    const inner = m;
    while (m < commas.length && commas[m] < 0) m++;
    const innerEnd = m;
    if (m < commas.length) to = commas[m++];
    let a = from;
    from = to + 1;
    while (a < to && isSpace(s.charCodeAt(a))) a++;
    // `{}`: an object with no members.
    if (a === to && to === last && commas.length === 0) return out;
    if (s.charCodeAt(a) !== 0x22) return undefined;
    // A name is looked for only among those wanted: the others are passed over without reading their names.
    let named: [string, boolean] | undefined;
    for (const w of byFirst[s.charCodeAt(a + 1)] ?? []) {
      const q = a + 1 + w[0].length;
      if (q < to && s.charCodeAt(q) === 0x22 && s.startsWith(w[0], a + 1)) {
        named = w;
        break;
      }
    }
    if (named === undefined) continue;
    let v = a + 2 + named[0].length;
    while (v < to && isSpace(s.charCodeAt(v))) v++;
    if (s.charCodeAt(v) !== 0x3a) return undefined;
    v++;
    while (v < to && isSpace(s.charCodeAt(v))) v++;
    let t = to;
    while (t > v && isSpace(s.charCodeAt(t - 1))) t--;
    const value = named[1] ? firstOf(s, v, t, commas.slice(inner, innerEnd)) : valueAt(s, v, t);
    if (value === undefined) return undefined;
    out[named[0]] = value;
  }
  return out;
}

/** One member's value: a string without escapes as its text, anything else by JSON.parse; undefined if bad. */
function valueAt(s: string, v: number, t: number): unknown {
  // The element holds no escape and (plain) no raw control character, so this is the string JSON.parse gives.
  if (t - v >= 2 && s.charCodeAt(v) === 0x22 && s.indexOf('"', v + 1) === t - 1) return s.slice(v + 1, t - 1);
  try {
    return JSON.parse(s.slice(v, t));
  } catch {
    return undefined;
  }
}

/**
 * A list of objects, its first parsed and the others standing as empty objects, by the commas between
 * its items; anything else (not a list, an item that is not an object) parsed whole.
 */
function firstOf(s: string, v: number, t: number, inner: readonly number[]): unknown {
  const whole = () => valueAt(s, v, t);
  if (s.charCodeAt(v) !== 0x5b || s.charCodeAt(t - 1) !== 0x5d) return whole();
  const end = inner.length > 0 ? -inner[0] : t - 1;
  let a = v + 1;
  while (a < end && isSpace(s.charCodeAt(a))) a++;
  if (a === end) return inner.length === 0 ? [] : whole();
  if (s.charCodeAt(a) !== 0x7b) return whole();
  const first = valueAt(s, a, end);
  if (first === null || typeof first !== 'object' || Array.isArray(first)) return whole();
  const list: unknown[] = [first];
  for (const c of inner) {
    let b = 1 - c;
    while (b < t && isSpace(s.charCodeAt(b))) b++;
    if (s.charCodeAt(b) !== 0x7b) return whole();
    list.push({});
  }
  return list;
}
