import type { Rec } from '../../formats/json/record.js';
import { comparableRange } from '../ranges.js';
import { bodyOf, type Prepared, type SyncSpec } from './prepare.js';

// The server's records as an import plans against them. Each is kept as a digest of its fields, not as
// the record: re-importing 100,000 unchanged records into a server that holds them needs only to know
// that they are equal. The whole record is fetched (one more streamed list) only for those an input
// record differs from, as the plan shows what changed and sends only that.

/** JSON with sorted keys, so equal records compare equal whatever their key order. */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Rec).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );
}

/** A field's value as plans compare it: each range without a precision its bound already says. */
export function comparableValue(field: string, v: unknown): unknown {
  return (field === 'referenceRanges' || field === 'panicRanges') && Array.isArray(v) ? v.map(comparableRange) : v;
}

/** A range given without an id matches a stored one whatever id the service gave it. */
export function comparable(field: string, incoming: unknown, existing: unknown): unknown {
  if (field !== 'referenceRanges' || !Array.isArray(incoming) || !Array.isArray(existing))
    return comparableValue(field, existing);
  return comparableValue(
    field,
    existing.map((r: Rec, i) => {
      if ((incoming[i] as Rec | undefined)?.id !== undefined) return r;
      const { id: _id, ...rest } = r;
      return rest;
    }),
  );
}

/** The reference ranges with their ids left out: what an input that gives none is compared with. */
const NO_IDS = 'referenceRanges\u0000without ids';

/**
 * A value's digest: two 32-bit hashes (FNV-1a, and one with another prime and a final mix), 64 bits in
 * all, of the value written as canonical JSON (keys sorted), hashed as it is walked so no text is built.
 * Two different values of a field share a digest with odds of about 1 in 2^64. [0, 0] stands for "absent".
 */
function digestOf(value: unknown, out: Int32Array, at: number): void {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  const text = (t: string) => {
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
  };
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object') {
      text(JSON.stringify(v) ?? 'null');
      return;
    }
    if (Array.isArray(v)) {
      text('[');
      for (let i = 0; i < v.length; i++) {
        if (i > 0) text(',');
        walk(v[i]);
      }
      text(']');
      return;
    }
    const keys = Object.keys(v)
      .filter((k) => (v as Rec)[k] !== undefined)
      .sort();
    text('{');
    for (let i = 0; i < keys.length; i++) {
      if (i > 0) text(',');
      text(JSON.stringify(keys[i]));
      text(':');
      walk((v as Rec)[keys[i]]);
    }
    text('}');
  };
  walk(value);
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  out[at] = a;
  out[at + 1] = a === 0 && b === 0 ? 1 : b;
}

/** The digest of an input field, reused: same() runs once for every record of an import. */
const scratch = new Int32Array(2);

/** One record of the server, as a match gives it: its id, and where its digest lies. */
export interface Stored {
  id: string;
  index: number;
}

export class Existing {
  /** Whole records: only those an input record differs from (see wholeWhereChanged in holdings.ts). */
  readonly whole = new Map<string, Rec>();
  // Per record: its id, and where its digest starts and ends in one shared pool (a typed array each
  // would cost more than the digest itself).
  private readonly ids: string[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private pool = new Int32Array(1 << 16);
  private used = 0;
  private readonly byId = new Map<string, number>();
  private readonly byKey = new Map<string, number>();
  /** Each field's place in a digest, as fields are first seen. */
  private readonly slots = new Map<string, number>();
  /** By an input record's ordinal: 1 when it is the same as the server's, 2 when not (asked once each). */
  private verdicts = new Uint8Array(1024);

  constructor(private readonly spec: SyncSpec) {}

  /** same() for a checked input record, worked out once: the plan asks again for each record. */
  sameAs(stored: Stored, rec: Prepared): boolean {
    const i = rec.ordinal;
    if (i >= this.verdicts.length) {
      const bigger = new Uint8Array(Math.max(this.verdicts.length * 2, i + 1));
      bigger.set(this.verdicts);
      this.verdicts = bigger;
    }
    if (this.verdicts[i] === 0) this.verdicts[i] = this.same(stored, bodyOf(rec)) ? 1 : 2;
    return this.verdicts[i] === 1;
  }

  get size(): number {
    return this.ids.length;
  }

  private slot(field: string): number {
    let at = this.slots.get(field);
    if (at === undefined) {
      at = this.slots.size * 2;
      this.slots.set(field, at);
    }
    return at;
  }

  /** Takes one of the server's records; `keepWhole` also keeps it whole (a list already held in memory). */
  add(r: Rec, keepWhole = false): void {
    // What is not a record (a server's fault) matches nothing, as before.
    if (r === null || typeof r !== 'object' || Array.isArray(r)) return;
    const fields = Object.keys(r);
    for (const f of fields) this.slot(f);
    const ranges = r.referenceRanges;
    if (Array.isArray(ranges)) this.slot(NO_IDS);
    const length = this.slots.size * 2;
    if (this.used + length > this.pool.length) {
      const bigger = new Int32Array(Math.max(this.pool.length * 2, this.used + length));
      bigger.set(this.pool.subarray(0, this.used));
      this.pool = bigger;
    }
    const start = this.used;
    this.pool.fill(0, start, start + length);
    for (const f of fields) digestOf(comparableValue(f, r[f]), this.pool, start + this.slot(f));
    if (Array.isArray(ranges))
      digestOf(comparable('referenceRanges', [], ranges), this.pool, start + this.slot(NO_IDS));
    this.used += length;
    const id = String(r.id);
    const index = this.ids.length;
    this.ids.push(id);
    this.starts.push(start);
    this.ends.push(start + length);
    this.byId.set(id, index);
    this.byKey.set(this.spec.key(r), index);
    if (keepWhole) this.whole.set(id, r);
  }

  /** The stored record an input record stands for: by the id it carried, else by its natural key. */
  match(id: string | undefined, key: string): Stored | undefined {
    const index = (id ? this.byId.get(id) : undefined) ?? this.byKey.get(key);
    return index === undefined ? undefined : { id: this.ids[index], index };
  }

  /**
   * True when every field of `body` equals the stored record's as planOne compares them (canonical JSON,
   * ranges given without ids against the stored ones without theirs); false when one differs, or when
   * that cannot be told without the whole record (some ranges given with ids and some without).
   */
  same(stored: Stored, body: Rec): boolean {
    const start = this.starts[stored.index];
    const end = this.ends[stored.index];
    for (const [field, to] of Object.entries(body)) {
      let name = field;
      if (field === 'referenceRanges' && Array.isArray(to) && to.length > 0) {
        const withIds = to.filter((r) => (r as Rec | undefined)?.id !== undefined).length;
        if (withIds !== 0 && withIds !== to.length) return false;
        if (withIds === 0) name = NO_IDS;
      }
      const at = this.slots.get(name);
      if (at === undefined || start + at + 1 >= end) return false;
      digestOf(comparableValue(field, to), scratch, 0);
      if (scratch[0] !== this.pool[start + at] || scratch[1] !== this.pool[start + at + 1]) return false;
    }
    return true;
  }
}
