import type { Rec } from '../../formats/json/record.js';
import { keptFrom } from '../../formats/kept.js';
import { withStoredIds } from '../range-ids.js';
import { canonical, comparable, comparableValue, type Existing } from './existing.js';
import { bodyOf, type Prepared, type SyncSpec } from './prepare.js';

interface PlannedChange {
  field: string;
  from: unknown;
  to: unknown;
}

export interface PlanItem {
  rec: Prepared;
  action: 'create' | 'update' | 'unchanged' | 'error';
  id?: string;
  changes?: PlannedChange[];
  patch?: Rec;
  error?: string;
}

/** Decides for one record: create when missing, update the fields that differ, or leave alone. */
export function planOne(spec: SyncSpec, rec: Prepared, found: Existing): PlanItem {
  const stored = found.match(rec.id, rec.key);
  if (!stored) return { rec, action: 'create' };
  const id = stored.id;
  if (found.sameAs(stored, rec)) return { rec, action: 'unchanged', id };
  // The whole record was fetched for this one (wholeWhereChanged); gone since, it is created again.
  const current = found.whole.get(id);
  if (!current) return { rec, action: 'create' };
  // What the file's format has no place for is left as the server holds it.
  const body = keptFrom(rec.carrier, bodyOf(rec), current);
  const changes: PlannedChange[] = [];
  for (const [field, given] of Object.entries(body)) {
    const from = current[field];
    const to = field === 'referenceRanges' ? withStoredIds(given, from) : given;
    if (canonical(comparableValue(field, to)) !== canonical(comparable(field, to, from)))
      changes.push({ field, from, to });
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
