import { bodyOf, type Prepared, type SyncSpec } from './prepare.js';

type Rec = Record<string, unknown>;

export interface Change {
  field: string;
  from: unknown;
  to: unknown;
}

export interface PlanItem {
  rec: Prepared;
  action: 'create' | 'update' | 'unchanged' | 'error';
  id?: string;
  changes?: Change[];
  patch?: Rec;
  error?: string;
}

/** JSON with sorted keys, so equal records compare equal whatever their key order. */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Rec).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );
}

/** A range given without an id matches a stored one whatever id the service gave it. */
function comparable(field: string, incoming: unknown, existing: unknown): unknown {
  if (field !== 'referenceRanges' || !Array.isArray(incoming) || !Array.isArray(existing)) return existing;
  return existing.map((r: Rec, i) => {
    if ((incoming[i] as Rec | undefined)?.id !== undefined) return r;
    const { id: _id, ...rest } = r;
    return rest;
  });
}

/** The server's records, found by id and by natural key. */
export interface Existing {
  byId: Map<string, Rec>;
  byKey: Map<string, Rec>;
}

export function indexExisting(spec: SyncSpec, existing: Rec[]): Existing {
  return {
    byId: new Map(existing.map((r) => [r.id as string, r])),
    byKey: new Map(existing.map((r) => [spec.key(r), r])),
  };
}

/** The stored record an input record stands for: by the id it carried, else by its natural key. */
export function matchOf(found: Existing, id: string | undefined, key: string): Rec | undefined {
  return (id ? found.byId.get(id) : undefined) ?? found.byKey.get(key);
}

/** Decides for one record: create when missing, update the fields that differ, or leave alone. */
export function planOne(spec: SyncSpec, rec: Prepared, found: Existing): PlanItem {
  const current = matchOf(found, rec.id, rec.key);
  if (!current) return { rec, action: 'create' };
  const id = current.id as string;
  const changes: Change[] = [];
  for (const [field, to] of Object.entries(bodyOf(rec))) {
    const from = current[field];
    if (canonical(to) !== canonical(comparable(field, to, from))) changes.push({ field, from, to });
  }
  const blocked = changes.filter((c) => spec.createOnly.includes(c.field));
  if (blocked.length > 0) {
    const list = blocked.map((c) => `${c.field} (${JSON.stringify(c.from)} → ${JSON.stringify(c.to)})`).join(', ');
    return {
      rec,
      action: 'error',
      id,
      changes,
      error: `${list} ${blocked.length === 1 ? 'is' : 'are'} create-only and cannot be changed on ${spec.noun} ${id}`,
    };
  }
  if (changes.length === 0) return { rec, action: 'unchanged', id };
  return { rec, action: 'update', id, changes, patch: Object.fromEntries(changes.map((c) => [c.field, c.to])) };
}
