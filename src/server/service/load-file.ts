import type { Rec } from '../../formats/json/record.js';
import { keyWords, naturalKey, RESOURCES } from '../../resources/index.js';
import { toFieldErrors } from '../../schemas/common.js';
import { COLLECTIONS, type CollectionName, DATA_FORMAT, type DataFile } from '../../schemas/data-file.js';
import { COVERAGE_FROM_CONTRACT } from '../../schemas/values.js';
import { fastCheck } from '../store/data-file.js';
import { RECORD_SCHEMAS, type StoredRecord } from '../store/records.js';
import type { State } from '../store/store.js';
import { newId } from './service.js';

/** A file `serve --load` or `sandbox load` cannot start from; its message names the record and the field. */
export class LoadError extends Error {
  override name = 'LoadError';
}

/** The keys a file may hold each collection under: the data file's own, and each resource's wrappers. */
const KEYS = new Map<string, CollectionName>([
  ...COLLECTIONS.map((c) => [c, c] as const),
  ...RESOURCES.flatMap((r) => (r.wrappers ?? []).map((w) => [w, r.collection] as const)),
  ['notifications', 'notifications'],
]);

/** Which collection a record of a bare list belongs to, by the field only its kind has. */
function kindOf(r: Rec): CollectionName | undefined {
  if ('contract' in r) return 'insuranceCoverages';
  if ('test' in r) return 'diagnosticMeasures';
  if ('code' in r || 'seenBy' in r) return 'notifications';
  if ('insured' in r && 'insurer' in r) return 'contracts';
  return undefined;
}

interface LoadOptions {
  /** The account given to records that come without `createdBy` (an export's). */
  account: string;
  now?: number;
  /**
   * The server's state, for a merge: a coverage may name a contract the file does not hold, and a record
   * without an id takes the id of the record with its natural key, (test, name) or (contract, name).
   */
  existing?: State;
}

/**
 * Where a record was in the file, for an error, counted from 1 in a list and in a data file alike: `record 3`,
 * `insuranceCoverages record 3`.
 */
interface Place {
  key?: string;
  index: number;
}
/** A record's place, and its id as the file gave it (one filled in here would only confuse). */
const where = (p: Place, r: unknown) => {
  const at = p.key === undefined ? `record ${p.index + 1}` : `${p.key} record ${p.index + 1}`;
  const id = r !== null && typeof r === 'object' && typeof (r as Rec).id === 'string' ? ` (id ${(r as Rec).id})` : '';
  return `${at}${id}`;
};

/**
 * A whole state from what a file holds: a data file, or a list as `measures export`, `coverages list -o json`
 * or `notifications list -o json` write it (service-set fields kept when present). Records an export wrote
 * without them get what a create would give (an id, `createdAt`, `createdBy`, ids for reference ranges, a
 * coverage's insured and insurer from its contract); contracts the coverages name that the file does not
 * hold are derived from the coverages' `insured`, `insurer`, `insurerType`, `insurerSubtype`. Then every
 * record is checked as serve checks its data file; the first problem is thrown, naming the record and field.
 */
export function loadState(raw: unknown, o: LoadOptions): State {
  const state = Object.fromEntries(COLLECTIONS.map((c) => [c, []])) as unknown as State;
  const places = new Map<object, Place>();
  const take = (coll: CollectionName, list: unknown, key?: string) => {
    if (!Array.isArray(list)) throw new LoadError(`${key}: must be a list of records`);
    list.forEach((r, index) => {
      if (r === null || typeof r !== 'object' || Array.isArray(r))
        throw new LoadError(`${where({ key, index }, r)}: must be a JSON object`);
      places.set(r, { key, index });
      state[coll].push(r as StoredRecord);
    });
  };
  if (Array.isArray(raw)) {
    let kind: CollectionName | undefined;
    raw.forEach((r, index) => {
      const k = r !== null && typeof r === 'object' && !Array.isArray(r) ? kindOf(r as Rec) : undefined;
      if (!k)
        throw new LoadError(
          `${where({ index }, r)}: not a measure (no test), coverage (no contract), notification (no code) or contract`,
        );
      if (kind !== undefined && k !== kind)
        throw new LoadError(`${where({ index }, r)}: a ${k} record in a list of ${kind}; give each kind its key`);
      kind = k;
    });
    if (kind) take(kind, raw);
  } else if (raw !== null && typeof raw === 'object') {
    const seen = new Map<CollectionName, string>();
    for (const [key, list] of Object.entries(raw)) {
      // A data file says its format; one of another format is not read as this one (serve --data migrates it).
      if (key === 'formatVersion') {
        if (list !== DATA_FORMAT)
          throw new LoadError(
            `formatVersion: ${JSON.stringify(list)} is not ${DATA_FORMAT}, the format this serve reads`,
          );
        continue;
      }
      const coll = KEYS.get(key);
      if (!coll) throw new LoadError(`${key}: unknown key; a file holds ${COLLECTIONS.join(', ')}`);
      if (seen.has(coll)) throw new LoadError(`${key}: ${coll} are already given as ${seen.get(coll)}`);
      seen.set(coll, key);
      take(coll, list, key);
    }
  } else {
    throw new LoadError(`must hold a JSON object with ${COLLECTIONS.join(', ')}, or a list of records`);
  }
  // Each record filled in, to the record as the file gave it: errors name the file's.
  const originals = new Map<object, Rec>();
  fill(state, places, o, originals);
  const label = (r: StoredRecord) => {
    const place = places.get(r);
    return place ? where(place, originals.get(r) ?? r) : `the contract ${r.id} derived from the coverages`;
  };
  check(state, label);
  if (!o.existing) refuseKeyTwice(state, label);
  return state;
}

/** What a create would have set, for records an export wrote without it. */
function fill(state: State, places: Map<object, Place>, o: LoadOptions, originals: Map<object, Rec>): void {
  const now = o.now ?? Date.now();
  const contracts = new Map<string, Rec>((o.existing?.contracts ?? []).map((c) => [c.id, c]));
  for (const c of state.contracts) if (typeof c.id === 'string') contracts.set(c.id, c);
  const derived = new Map<string, { rec: Rec; from: Rec }>();
  for (const res of RESOURCES) {
    if (!res.schemas) continue;
    const held = new Map((o.existing?.[res.collection] ?? []).map((r) => [naturalKey(res, r), r]));
    state[res.collection] = state[res.collection].map((r) => {
      const rec: Rec = { ...r };
      places.set(rec, places.get(r)!);
      originals.set(rec, r);
      const same = rec.id === undefined ? held.get(naturalKey(res, rec)) : undefined;
      if (same) {
        rec.id = same.id;
        rec.createdAt ??= same.createdAt;
        rec.createdBy ??= same.createdBy;
      }
      rec.id ??= newId(res.idPrefix);
      rec.createdAt ??= now;
      rec.createdBy ??= o.account;
      for (const [field, prefix] of Object.entries(res.subIds ?? {})) {
        const items = rec[field];
        if (Array.isArray(items))
          rec[field] = items.map((s) => (s && typeof s === 'object' && !s.id ? { id: newId(prefix), ...s } : s));
      }
      const from = res.fromContract;
      if (from && typeof rec[from.field] === 'string') {
        const id = rec[from.field] as string;
        const known = contracts.get(id);
        if (known) {
          for (const f of from.copies) if (rec[f] === undefined && known[f] !== undefined) rec[f] = known[f];
        } else if (rec.insured === undefined || rec.insurer === undefined) {
          throw new LoadError(
            `${where(places.get(r)!, r)}: contract: ${id} is not among the file's contracts, and the record has no ` +
              'insured and insurer to derive it from; add it to "contracts"',
          );
        } else {
          const mine = contractOf(id, rec);
          const first = derived.get(id);
          if (!first) derived.set(id, { rec: mine, from: r });
          else {
            for (const f of COVERAGE_FROM_CONTRACT)
              if (first.rec[f] !== mine[f])
                throw new LoadError(
                  `${where(places.get(r)!, r)}: ${f}: ${String(mine[f])} differs from ${String(first.rec[f])} of ` +
                    `${where(places.get(first.from)!, first.from)}, of the same contract ${id}; ` +
                    'add the contract to "contracts"',
                );
          }
        }
      }
      return rec as StoredRecord;
    });
  }
  for (const { rec } of derived.values()) state.contracts.push(rec as StoredRecord);
}

/**
 * Serve's rule that a measure's (test, name) and a coverage's (contract, name) are unique, over a whole state
 * (a load, or a merge's result); `label` names a record for the error.
 */
export function refuseKeyTwice(state: State, label: (r: StoredRecord) => string = (r) => `record ${r.id}`): void {
  for (const res of RESOURCES) {
    if (!res.key) continue;
    const seen = new Map<string, StoredRecord>();
    for (const r of state[res.collection]) {
      const key = naturalKey(res, r);
      const first = seen.get(key);
      if (first && first.id !== r.id)
        throw new LoadError(`${label(r)}: name: a ${res.noun} with ${keyWords(res, r)} is also ${label(first)}`);
      seen.set(key, r);
    }
  }
}

/** A contract as a coverage shows it: its id, and the fields the service copied from it. */
export function contractOf(id: string, coverage: Rec): Rec {
  const c: Rec = { id };
  for (const f of COVERAGE_FROM_CONTRACT) if (coverage[f] !== undefined) c[f] = coverage[f];
  return c;
}

/** The data file's rules, record by record, and no id twice in a collection. */
function check(state: State, label: (r: StoredRecord) => string): void {
  for (const coll of COLLECTIONS) {
    const ids = new Map<string, StoredRecord>();
    for (const r of state[coll]) {
      if (typeof r.id === 'string' && ids.has(r.id)) throw new LoadError(`${label(r)}: id: ${r.id} is given twice`);
      ids.set(r.id, r);
    }
  }
  // The fast check vouches for a good state; any doubt, and zod reads each record to word the first problem.
  if (fastCheck()?.(state as DataFile)) return;
  for (const coll of COLLECTIONS) {
    for (const r of state[coll]) {
      const checked = RECORD_SCHEMAS[coll].safeParse(r);
      if (checked.success) continue;
      const [first] = toFieldErrors(checked.error, r);
      throw new LoadError(`${label(r)}: ${first.path}: ${first.message}`);
    }
  }
}
