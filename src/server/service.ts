import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { type FieldError, parseWith, toFieldErrors } from '../schemas/common.js';
import { type Contract, coverageCreateSchema, coveragePatchSchema, coverageSchema } from '../schemas/coverages.js';
import type { CollectionName } from '../schemas/data-file.js';
import { measureCreateSchema, measurePatchSchema, measureSchema } from '../schemas/measures.js';
import { recordJson } from './record-json.js';
import type { Rec, Store } from './store.js';

/** A refusal the routes turn into a problem; the service itself knows no HTTP. */
export class ServiceError extends Error {
  override name = 'ServiceError';
  constructor(
    readonly kind: 'invalid' | 'not-found' | 'unknown-contract',
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
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

export interface Resource {
  path: string;
  coll: CollectionName;
  noun: string;
  writable: boolean;
}

export const RESOURCES: Resource[] = [
  { path: 'diagnostic-measures', coll: 'diagnosticMeasures', noun: 'measure', writable: true },
  { path: 'insurance-coverages', coll: 'insuranceCoverages', noun: 'coverage', writable: true },
  { path: 'notifications', coll: 'notifications', noun: 'notification', writable: false },
];

interface WritableSpec {
  prefix: string;
  create: z.ZodType<Record<string, unknown>>;
  patch: z.ZodType<Record<string, unknown>>;
  entity: z.ZodType<Record<string, unknown>>;
  label: (r: Rec) => string;
}

const SPECS: Partial<Record<CollectionName, WritableSpec>> = {
  diagnosticMeasures: {
    prefix: 'msr',
    create: measureCreateSchema as never,
    patch: measurePatchSchema as never,
    entity: measureSchema as never,
    label: (r) => `${r.name} (test ${r.test})`,
  },
  insuranceCoverages: {
    prefix: 'cov',
    create: coverageCreateSchema as never,
    patch: coveragePatchSchema as never,
    entity: coverageSchema as never,
    label: (r) => `${r.name} (contract ${r.contract})`,
  },
};

export interface ServiceOptions {
  store: Store;
  /** Record a notification for each change (default true). */
  events?: boolean;
  now?: () => number;
}

export type Service = ReturnType<typeof createService>;

export function createService({ store, events = true, now = Date.now }: ServiceOptions) {
  function spec(coll: CollectionName): WritableSpec {
    const s = SPECS[coll];
    if (!s) throw new Error(`${coll} is read-only`);
    return s;
  }

  /** Never answers from a change that is not on disk yet: a read waits for it, as a 200 for it would. */
  async function durable(res: Resource, id?: string): Promise<void> {
    if (store.isPending(res.coll, id)) await store.settle();
  }

  function mustGet(res: Resource, id: string): Rec {
    const rec = store.get(res.coll, id);
    if (!rec) throw new ServiceError('not-found', `no ${res.noun} with id ${id}`);
    return rec;
  }

  /** A 404 must not come from a delete that a crash could still undo. */
  async function mustGetDurably(res: Resource, id: string): Promise<Rec> {
    if (!store.get(res.coll, id)) await durable(res, id);
    return mustGet(res, id);
  }

  function validate(schema: z.ZodType<Record<string, unknown>>, body: unknown): Record<string, unknown> {
    const r = parseWith(schema, body);
    if (!r.ok) throw new ServiceError('invalid', describeErrors(r.errors), r.errors);
    return r.value;
  }

  /** Gives each reference range without an id a fresh one. */
  function withRangeIds(rec: Record<string, unknown>): Record<string, unknown> {
    const ranges = rec.referenceRanges as Record<string, unknown>[] | undefined;
    if (!ranges) return rec;
    return { ...rec, referenceRanges: ranges.map((r) => (r.id ? r : { id: newId('rr'), ...r })) };
  }

  function contractOf(id: string): Contract {
    const c = store.get('contracts', id) as Contract | undefined;
    if (!c) {
      throw new ServiceError(
        'unknown-contract',
        `contract ${id} is not on file; add it to the "contracts" collection of the server's data file ` +
          '(with id, insured and insurer) and restart the server',
        [{ path: 'contract', message: `unknown contract ${id}` }],
      );
    }
    return c;
  }

  function event(res: Resource, action: 'created' | 'updated' | 'deleted', rec: Rec, account: string) {
    const what = spec(res.coll).label(rec);
    const noun = res.noun[0].toUpperCase() + res.noun.slice(1);
    const notification: Rec = {
      id: newId('ntf'),
      createdAt: now(),
      code: `${res.noun}-${action}`,
      type: res.path.slice(0, -1),
      title: `${noun} ${action}: ${rec.name}`,
      body: `${noun} ${what} was ${action} by ${account}.`,
      meta: { resource: res.path, id: rec.id, action, account },
      seenBy: [],
    };
    return { coll: 'notifications' as const, id: notification.id, after: notification };
  }

  async function write(res: Resource, action: 'created' | 'updated' | 'deleted', rec: Rec, account: string) {
    const writes: { coll: CollectionName; id: string; after: Rec | undefined }[] = [
      { coll: res.coll, id: rec.id, after: action === 'deleted' ? undefined : rec },
    ];
    if (events) writes.push(event(res, action, rec, account));
    await store.commit(writes);
  }

  return {
    async list(res: Resource): Promise<Rec[]> {
      await durable(res);
      return store.list(res.coll);
    },

    /**
     * Reading one notification marks it seen by the caller, once; nothing else changes on read. Without
     * an account (HEAD) nothing changes at all.
     */
    async get(res: Resource, id: string, account: string | undefined): Promise<Rec> {
      await durable(res, id);
      const rec = mustGet(res, id);
      if (res.coll !== 'notifications' || account === undefined) return rec;
      const seenBy = (rec.seenBy as string[] | undefined) ?? [];
      if (seenBy.includes(account)) return rec;
      const after = { ...rec, seenBy: [...seenBy, account] };
      await store.commit([{ coll: res.coll, id, after }]);
      return after;
    },

    async create(res: Resource, body: unknown, account: string): Promise<Rec> {
      const s = spec(res.coll);
      const input = validate(s.create, body);
      let rec: Rec = { id: newId(s.prefix), createdAt: now(), createdBy: account, ...withRangeIds(input) } as Rec;
      if (res.coll === 'insuranceCoverages') {
        const c = contractOf(input.contract as string);
        rec = { ...rec, insured: c.insured, insurer: c.insurer };
        if (c.insurerType !== undefined) rec.insurerType = c.insurerType;
        if (c.insurerSubtype !== undefined) rec.insurerSubtype = c.insurerSubtype;
      }
      await write(res, 'created', rec, account);
      return rec;
    },

    async update(res: Resource, id: string, body: unknown, account: string): Promise<Rec> {
      const s = spec(res.coll);
      await mustGetDurably(res, id);
      // Read again after any wait, so the merge starts from the latest state.
      const current = mustGet(res, id);
      const patch = validate(s.patch, body);
      const merged = { ...current, ...withRangeIds(patch) } as Rec;
      // Rules across fields (choices for a checklist, min ≤ max) must hold for the record as a whole.
      const whole = s.entity.safeParse(merged);
      if (!whole.success) {
        const errors = toFieldErrors(whole.error, merged);
        throw new ServiceError('invalid', describeErrors(errors), errors);
      }
      // A PATCH that changes nothing writes nothing: no journal line, no notification.
      if (recordJson(merged) === recordJson(current)) return current;
      await write(res, 'updated', merged, account);
      return merged;
    },

    async remove(res: Resource, id: string, account: string): Promise<Rec> {
      await mustGetDurably(res, id);
      const rec = mustGet(res, id);
      await write(res, 'deleted', rec, account);
      return rec;
    },
  };
}

export function describeErrors(errors: FieldError[]): string {
  const shown = errors.slice(0, 3).map((e) => `${e.path}: ${e.message}`);
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : '';
  return `the body is invalid: ${shown.join('; ')}${more}`;
}
