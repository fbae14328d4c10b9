import type { SyncSpec } from './prepare.js';

// The server's records as an import plans against them. Each is kept as a digest of its fields, not as
// the record: re-importing 100,000 unchanged records into a server that holds them needs only to know
// that they are equal. The whole record is fetched (one more streamed list) only for those an input
// record differs from, as the plan shows what changed and sends only that.

type Rec = Record<string, unknown>;

/** JSON with sorted keys, so equal records compare equal whatever their key order. */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Rec).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );
}

/** A range given without an id matches a stored one whatever id the service gave it. */
export function comparable(field: string, incoming: unknown, existing: unknown): unknown {
  if (field !== 'referenceRanges' || !Array.isArray(incoming) || !Array.isArray(existing)) return existing;
  return existing.map((r: Rec, i) => {
    if ((incoming[i] as Rec | undefined)?.id !== undefined) return r;
    const { id: _id, ...rest } = r;
    return rest;
  });
}

/** The reference ranges with their ids left out: what an input that gives none is compared with. */
const NO_IDS = 'referenceRanges\u0000without ids';

/**
 * Two 32-bit hashes of a text, FNV-1a and one with another prime and a final mix: 64 bits in all, so two
 * different values of a field share a digest with odds of about 1 in 2^64. [0, 0] stands for "absent".
 */
function digestOf(text: string, out: Int32Array, at: number): void {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  out[at] = a;
  out[at + 1] = a === 0 && b === 0 ? 1 : b;
}

/** One record of the server: what the plan and --prune need of it. */
export interface Stored {
  id: string;
  name: unknown;
  /** The value of the spec's scope field (test, contract), for --prune. */
  scope: string | undefined;
  label: string;
  digest: Int32Array;
}

export class Existing {
  readonly byId = new Map<string, Stored>();
  readonly byKey = new Map<string, Stored>();
  /** Whole records: only those an input record differs from (see wholeWhereChanged in run.ts). */
  readonly whole = new Map<string, Rec>();
  /** Each field's place in a digest, as fields are first seen. */
  private readonly slots = new Map<string, number>();

  constructor(private readonly spec: SyncSpec) {}

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
    const digest = new Int32Array(this.slots.size * 2);
    for (const f of fields) digestOf(canonical(r[f]), digest, this.slot(f));
    if (Array.isArray(ranges))
      digestOf(canonical(comparable('referenceRanges', [], ranges)), digest, this.slot(NO_IDS));
    const id = String(r.id);
    const scope = this.spec.scope === undefined ? undefined : String(r[this.spec.scope]);
    const stored: Stored = { id, name: r.name, scope, label: this.spec.label(r), digest };
    this.byId.set(id, stored);
    this.byKey.set(this.spec.key(r), stored);
    if (keepWhole) this.whole.set(id, r);
  }

  /** The stored record an input record stands for: by the id it carried, else by its natural key. */
  match(id: string | undefined, key: string): Stored | undefined {
    return (id ? this.byId.get(id) : undefined) ?? this.byKey.get(key);
  }

  /**
   * True when every field of `body` equals the stored record's as planOne compares them (canonical JSON,
   * ranges given without ids against the stored ones without theirs); false when one differs, or when
   * that cannot be told without the whole record (some ranges given with ids and some without).
   */
  same(stored: Stored, body: Rec): boolean {
    const scratch = new Int32Array(2);
    for (const [field, to] of Object.entries(body)) {
      let name = field;
      if (field === 'referenceRanges' && Array.isArray(to) && to.length > 0) {
        const withIds = to.filter((r) => (r as Rec | undefined)?.id !== undefined).length;
        if (withIds !== 0 && withIds !== to.length) return false;
        if (withIds === 0) name = NO_IDS;
      }
      const at = this.slots.get(name);
      if (at === undefined || at + 1 >= stored.digest.length) return false;
      digestOf(canonical(to), scratch, 0);
      if (scratch[0] !== stored.digest[at] || scratch[1] !== stored.digest[at + 1]) return false;
    }
    return true;
  }
}
