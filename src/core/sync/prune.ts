import type { ApiClient } from '../../api/client.js';
import { CliError, DeadlineError, EXIT } from '../../errors.js';
import { cutByDeadline, type RecordResult } from './execute.js';
import type { Existing } from './existing.js';
import type { Checker, Prepared, SyncSpec } from './prepare.js';

// `--prune`: within the tests (or contracts) a file names, the server ends holding exactly the file's
// records, so what the file does not list is deleted. Other tests and contracts are never touched. A record
// the file deletes by name (HL7's MDL) is deleted alone, when the server holds it.

/** A record on the server that --prune would delete. */
export interface Deletion {
  id: string;
  name: unknown;
  /** The record's key in words: "contract ctr_a and name Copay". */
  label: string;
}

/**
 * The server's records in the scopes the file names that no record of the file matched, and those it
 * deletes by name that no record of it sends: its list read once more, streamed, as the import keeps only
 * digests of the records (existing.ts).
 */
export async function pruneList(
  spec: SyncSpec,
  records: AsyncIterable<Prepared[]>,
  scopes: Set<string>,
  named: Checker['named'],
  found: Existing,
  client: ApiClient,
): Promise<Deletion[]> {
  const scope = spec.scope;
  if (scope === undefined) return [];
  const kept = new Set<unknown>();
  for await (const batch of records) for (const r of batch) kept.add(found.match(r.id, r.key)?.id);
  const byName = new Set<string>();
  for (const n of named) {
    const stored = found.match(n.id, n.key ?? '');
    if (stored && !kept.has(stored.id)) byName.add(stored.id);
  }
  if (scopes.size === 0 && byName.size === 0) return [];
  const deletions: Deletion[] = [];
  await client.stream(spec.path, {
    record: (rec) => {
      const r = rec as Record<string, unknown>;
      if (r === null || typeof r !== 'object') return;
      if ((scopes.has(String(r[scope])) && !kept.has(r.id)) || byName.has(String(r.id)))
        deletions.push({ id: String(r.id), name: r.name, label: spec.label(r) });
    },
    batchEnd: () => true,
    drained: async () => undefined,
  });
  return deletions;
}

interface RemoveOptions {
  client: ApiClient;
  path: string;
  concurrency: number;
  stop: Promise<unknown>;
  /** Each result, as it comes. */
  onDone: (r: RecordResult) => void;
}

/**
 * Deletes each record with bounded concurrency; one already gone counts as deleted (the goal holds).
 * Returns whether --timeout passed, which stops it as Ctrl-C does; each deletion left is reported not sent.
 */
export async function removeAll(deletions: Deletion[], o: RemoveOptions): Promise<boolean> {
  let next = 0;
  let stopped = false;
  let timedOut = false;
  void o.stop.then(() => (stopped = true));
  const worker = async () => {
    while (!stopped && next < deletions.length) {
      const d = deletions[next++];
      let r: RecordResult;
      try {
        await o.client.request('DELETE', `${o.path}/${encodeURIComponent(d.id)}`);
        r = { name: d.name, outcome: 'deleted', id: d.id };
      } catch (err) {
        if (err instanceof CliError && err.exitCode === EXIT.notFound)
          r = { name: d.name, outcome: 'deleted', id: d.id };
        else if (err instanceof DeadlineError) {
          timedOut = stopped = true;
          r = cutByDeadline(err, { name: d.name, outcome: 'failed', id: d.id }, 'deleted');
        } else r = { name: d.name, outcome: 'failed', id: d.id, error: (err as Error).message };
      }
      o.onDone(r);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, deletions.length)) }, worker));
  // Those a stop left unsent are counted too, as an import's records are: the summary misses none.
  for (const d of deletions.slice(next)) o.onDone({ name: d.name, outcome: 'not-sent', id: d.id });
  return timedOut;
}
