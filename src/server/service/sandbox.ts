import { toFieldErrors } from '../../schemas/common.js';
import { COLLECTIONS } from '../../schemas/data-file.js';
import { resetLine } from '../store/journal.js';
import { RECORD_SCHEMAS } from '../store/records.js';
import { isSandboxName, listSnapshots, NAME_RULE, readSnapshot, saveSnapshot } from '../store/snapshots.js';
import type { State, Store, StoredRecord } from '../store/store.js';
import { LoadError, loadState, refuseKeyTwice } from './load-file.js';
import { ServiceError, stored } from './service.js';

// The sandbox's state, for test suites that use serve as a double: snapshots and reset (WireMock's reset,
// LocalStack's state snapshots), a whole state loaded, contracts added. `/_admin/…` (http/admin.ts) asks
// this and never the store, so storage's refusals reach it as the service's own.

export { isSandboxName, NAME_RULE };

/** How many records of each kind a state holds, as the answers of reset and load say. */
const counts = (s: State) => ({
  measures: s.diagnosticMeasures.length,
  coverages: s.insuranceCoverages.length,
  notifications: s.notifications.length,
});

/** `existing` with each record of `loaded` added, or put in place of the one with its id. */
function merged(existing: State, loaded: State): State {
  const out = {} as State;
  for (const c of COLLECTIONS) {
    const byId = new Map<string, StoredRecord>(existing[c].map((r) => [r.id, r]));
    for (const r of loaded[c]) byId.set(r.id, r);
    out[c] = [...byId.values()];
  }
  return out;
}

/** Whether two records hold the same fields with the same values, whatever their order. */
function sameData(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

export type SandboxState = ReturnType<typeof createSandboxState>;

export function createSandboxState(store: Store) {
  const dataFile = store.file;
  // Snapshots already read or saved, with their journal line: records are replaced, never changed in place,
  // so a state can be shared, and a reset costs one write. `''` is what a reset without a name restores: the
  // state the server started with, or the last one loaded.
  let initial = store.acknowledged();
  const cache = new Map<string, { state: State; line: string }>();

  async function stateOf(name: string | undefined) {
    const key = name ?? '';
    let known = cache.get(key);
    if (!known) {
      const state = name === undefined ? initial : await readSnapshot(dataFile, name);
      if (!state) return undefined;
      known = { state, line: resetLine(state) };
      cache.set(key, known);
    }
    return known;
  }

  return {
    /** Saves the acknowledged state under `name` (a valid snapshot name, checked by the caller). */
    async save(name: string) {
      await stored(store.settle());
      const state = store.acknowledged();
      const info = await saveSnapshot(dataFile, name, state);
      cache.set(name, { state, line: resetLine(state) });
      return info;
    },

    list: () => listSnapshots(dataFile),

    /** Returns to the snapshot `name`, or without one to the state the server started with. */
    async reset(name: string | undefined) {
      const known = await stateOf(name);
      if (!known) throw new ServiceError('not-found', `no snapshot named ${String(name)}`);
      await stored(store.reset(known.state, known.line));
      return counts(known.state);
    },

    /** Replaces the whole state (or with `merge` adds and replaces by id) in one journal line; reset returns to it. */
    async load(body: unknown, merge: boolean, account: string) {
      await stored(store.settle());
      const existing = store.acknowledged();
      let next: State;
      try {
        const loaded = loadState(body, { account, existing: merge ? existing : undefined });
        next = merge ? merged(existing, loaded) : loaded;
        if (merge) refuseKeyTwice(next);
      } catch (err) {
        if (err instanceof LoadError) throw new ServiceError('invalid', `the state cannot be loaded: ${err.message}`);
        throw err;
      }
      const line = resetLine(next);
      await stored(store.reset(next, line));
      initial = next;
      cache.set('', { state: next, line });
      return { merge, ...counts(next), contracts: next.contracts.length };
    },

    /** Adds a contract, so coverages for it can be created; the same contract again changes nothing. */
    async addContract(body: unknown) {
      const checked = RECORD_SCHEMAS.contracts.safeParse(body);
      if (!checked.success) {
        const errors = toFieldErrors(checked.error, body);
        const [first] = errors;
        throw new ServiceError('invalid', `the contract is invalid: ${first.path}: ${first.message}`, errors);
      }
      const contract = body as StoredRecord;
      await stored(store.settle());
      const held = store.get('contracts', contract.id);
      // Compared as data: the same contract with its fields in another order is the same contract.
      if (held && !sameData(held, contract))
        throw new ServiceError(
          'conflict',
          `contract ${contract.id} is on file with other values: ${JSON.stringify(held)}`,
          [{ path: 'id', message: `already used by contract ${contract.id}` }],
        );
      if (!held) await stored(store.commit([{ coll: 'contracts', id: contract.id, after: contract }]));
      return contract;
    },
  };
}
