import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { recordJson } from '../../formats/json/record-json.js';
import { keyWords, naturalKey, notifications, type Resource, type SchemaSet } from '../../resources/index.js';
import { type FieldError, parseWith, toFieldErrors } from '../../schemas/common.js';
import type { Contract } from '../../schemas/coverages.js';
import type { CollectionName } from '../../schemas/data-file.js';
import { type Store, type StoredRecord, StoreUnavailableError } from '../store/store.js';

/** A refusal the routes turn into a problem; the service itself knows no HTTP. */
export class ServiceError extends Error {
  override name = 'ServiceError';
  constructor(
    readonly kind: 'invalid' | 'not-found' | 'unknown-contract' | 'conflict' | 'unavailable',
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
  }
}

/** Storage's refusal to write (its disk failed, or serve is closing) as the service's own: nothing was changed. */
export async function stored<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (err instanceof StoreUnavailableError) throw new ServiceError('unavailable', err.message);
    throw err;
  }
}

// Random bytes drawn a page at a time: one getrandom call per 4 KiB rather than per id.
let pool = Buffer.alloc(0);
let offset = 0;

export function newId(prefix: string): string {
  if (offset + 9 > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  offset += 9;
  return `${prefix}_${pool.toString('base64url', offset - 9, offset)}`;
}

/** "Sodium (test tst_bmp)": the record's name and the rest of its natural key, for notifications. */
function label(res: Resource, r: StoredRecord): string {
  const rest = (res.key ?? []).filter((k) => k !== 'name').map((k) => `${k} ${String(r[k])}`);
  return rest.length > 0 ? `${r.name} (${rest.join(', ')})` : String(r.name);
}

interface ServiceOptions {
  store: Store;
  /** Record a notification for each change (default true). */
  events?: boolean;
  now?: () => number;
}

export type Service = ReturnType<typeof createService>;

export function createService({ store, events = true, now = Date.now }: ServiceOptions) {
  // Each writable collection's natural keys, (test, name) or (contract, name), to the record holding it:
  // built on first use, then kept by every write. A second record with the same key is refused (409).
  // A reset or load replaces every record at once, so the indexes are built again after one.
  const keys = new Map<Resource, Map<string, string>>();
  let builtAt = store.resets;
  function keyIndex(res: Resource): Map<string, string> {
    if (builtAt !== store.resets) {
      keys.clear();
      builtAt = store.resets;
    }
    let index = keys.get(res);
    if (!index) {
      index = new Map();
      for (const r of store.list(res.collection))
        if (!index.has(naturalKey(res, r))) index.set(naturalKey(res, r), r.id);
      keys.set(res, index);
    }
    return index;
  }
  /** Claims `rec`'s key for it, synchronously (so two requests at once cannot both pass), or refuses. */
  function claimKey(res: Resource, rec: StoredRecord, before?: StoredRecord): () => void {
    const index = keyIndex(res);
    const key = naturalKey(res, rec);
    const old = before ? naturalKey(res, before) : undefined;
    if (key === old) return () => undefined;
    const holder = index.get(key);
    if (holder !== undefined && holder !== rec.id) {
      const words = keyWords(res, rec);
      throw new ServiceError('conflict', `a ${res.noun} with ${words} already exists as ${holder}`, [
        { path: 'name', message: `already used by ${holder} (${words})` },
      ]);
    }
    index.set(key, rec.id);
    if (old !== undefined && index.get(old) === rec.id) index.delete(old);
    // Undone when the write fails: the key goes back to what it was.
    return () => {
      if (index.get(key) === rec.id) index.delete(key);
      if (old !== undefined) index.set(old, rec.id);
    };
  }

  const schemas = new Map<Resource, Promise<SchemaSet>>();
  function schemasOf(res: Resource): Promise<SchemaSet> {
    if (!res.schemas) throw new Error(`${res.collection} is read-only`);
    let s = schemas.get(res);
    if (!s) {
      s = res.schemas();
      schemas.set(res, s);
    }
    return s;
  }

  /** Never answers from a change that is not on disk yet: a read waits for it, as a 200 for it would. */
  async function durable(res: Resource, id?: string): Promise<void> {
    if (store.isPending(res.collection, id)) await stored(store.settle());
  }

  function mustGet(res: Resource, id: string): StoredRecord {
    const rec = store.get(res.collection, id);
    if (!rec) throw new ServiceError('not-found', `no ${res.noun} with id ${id}`);
    return rec;
  }

  /** A 404 must not come from a delete that a crash could still undo. */
  async function mustGetDurably(res: Resource, id: string): Promise<StoredRecord> {
    if (!store.get(res.collection, id)) await durable(res, id);
    return mustGet(res, id);
  }

  function validate(schema: z.ZodType<Record<string, unknown>>, body: unknown): Record<string, unknown> {
    const r = parseWith(schema, body);
    if (!r.ok) throw new ServiceError('invalid', describeErrors(r.errors), r.errors);
    return r.value;
  }

  /** Gives each sub-record without an id a fresh one (a measure's reference ranges: the registry's subIds). */
  function withSubIds(res: Resource, rec: Record<string, unknown>): Record<string, unknown> {
    let out = rec;
    for (const [field, prefix] of Object.entries(res.subIds ?? {})) {
      const items = rec[field] as Record<string, unknown>[] | undefined;
      if (items) out = { ...out, [field]: items.map((r) => (r.id ? r : { id: newId(prefix), ...r })) };
    }
    return out;
  }

  function contractOf(id: string): Contract {
    const c = store.get('contracts', id) as Contract | undefined;
    if (!c) {
      throw new ServiceError(
        'unknown-contract',
        `contract ${id} is not on file; add it with clinadmin sandbox contracts add (an admin's token), or to ` +
          'the "contracts" collection of the server\'s data file (with id, insured and insurer) and restart the server',
        [{ path: 'contract', message: `unknown contract ${id}` }],
      );
    }
    return c;
  }

  function event(res: Resource, action: 'created' | 'updated' | 'deleted', rec: StoredRecord, account: string) {
    const what = label(res, rec);
    const noun = res.noun[0].toUpperCase() + res.noun.slice(1);
    const notification: StoredRecord = {
      id: newId(notifications.idPrefix),
      createdAt: now(),
      code: `${res.noun}-${action}`,
      // 'diagnostic-measure' from '/diagnostic-measures'.
      type: res.path.slice(1, -1),
      title: `${noun} ${action}: ${rec.name}`,
      body: `${noun} ${what} was ${action} by ${account}.`,
      meta: { resource: res.path.slice(1), id: rec.id, action, account },
      seenBy: [],
    };
    return { coll: 'notifications' as const, id: notification.id, after: notification };
  }

  async function write(res: Resource, action: 'created' | 'updated' | 'deleted', rec: StoredRecord, account: string) {
    const writes: { coll: CollectionName; id: string; after: StoredRecord | undefined }[] = [
      { coll: res.collection, id: rec.id, after: action === 'deleted' ? undefined : rec },
    ];
    if (events) writes.push(event(res, action, rec, account));
    await stored(store.commit(writes));
  }

  return {
    /** The contracts on file (a serve extension: they are set in the data file, never over HTTP). */
    contracts(): StoredRecord[] {
      return store.list('contracts');
    },

    async list(res: Resource): Promise<StoredRecord[]> {
      await durable(res);
      return store.list(res.collection);
    },

    /**
     * Reading one notification marks it seen by the caller, once; nothing else changes on read. Without
     * an account (HEAD) nothing changes at all.
     */
    async get(res: Resource, id: string, account: string | undefined): Promise<StoredRecord> {
      await durable(res, id);
      const rec = mustGet(res, id);
      if (!res.marksSeen || account === undefined) return rec;
      const seenBy = (rec.seenBy as string[] | undefined) ?? [];
      if (seenBy.includes(account)) return rec;
      const after = { ...rec, seenBy: [...seenBy, account] };
      await stored(store.commit([{ coll: res.collection, id, after }]));
      return after;
    },

    async create(res: Resource, body: unknown, account: string): Promise<StoredRecord> {
      const s = await schemasOf(res);
      const input = validate(s.create, body);
      const rec: StoredRecord = {
        id: newId(res.idPrefix),
        createdAt: now(),
        createdBy: account,
        ...withSubIds(res, input),
      } as StoredRecord;
      const from = res.fromContract;
      if (from) {
        const c = contractOf(input[from.field] as string);
        const contract = c as Record<string, unknown>;
        for (const field of from.copies) if (contract[field] !== undefined) rec[field] = contract[field];
      }
      const undo = claimKey(res, rec);
      try {
        await write(res, 'created', rec, account);
      } catch (err) {
        undo();
        throw err;
      }
      return rec;
    },

    async update(res: Resource, id: string, body: unknown, account: string): Promise<StoredRecord> {
      const s = await schemasOf(res);
      await mustGetDurably(res, id);
      // Read again after any wait, so the merge starts from the latest state.
      const current = mustGet(res, id);
      const patch = validate(s.patch, body);
      const merged = { ...current, ...withSubIds(res, patch) } as StoredRecord;
      // Rules across fields (choices for a checklist, min ≤ max) must hold for the record as a whole.
      const whole = s.entity.safeParse(merged);
      if (!whole.success) {
        const errors = toFieldErrors(whole.error, merged);
        throw new ServiceError('invalid', describeErrors(errors), errors);
      }
      // A PATCH that changes nothing writes nothing: no journal line, no notification.
      if (recordJson(merged) === recordJson(current)) return current;
      const undo = claimKey(res, merged, current);
      try {
        await write(res, 'updated', merged, account);
      } catch (err) {
        undo();
        throw err;
      }
      return merged;
    },

    async remove(res: Resource, id: string, account: string): Promise<StoredRecord> {
      await mustGetDurably(res, id);
      const rec = mustGet(res, id);
      // The key is free once the record is gone; taken back if the delete cannot be saved.
      const index = res.schemas ? keyIndex(res) : undefined;
      const key = naturalKey(res, rec);
      const held = index?.get(key) === id;
      if (held) index!.delete(key);
      try {
        await write(res, 'deleted', rec, account);
      } catch (err) {
        if (held) index!.set(key, id);
        throw err;
      }
      return rec;
    },
  };
}

function describeErrors(errors: FieldError[]): string {
  const shown = errors.slice(0, 3).map((e) => `${e.path}: ${e.message}`);
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : '';
  return `the body is invalid: ${shown.join('; ')}${more}`;
}
