import type { ApiClient } from '../../api/client.js';
import { JsonText } from '../../json/json-text.js';
import type { PlanItem } from './plan.js';

export type Outcome = 'created' | 'updated' | 'unchanged' | 'deleted' | 'failed' | 'not-sent';

/** One record's outcome: a record of the input by its place, or one deleted by --prune by its id alone. */
export interface RecordResult {
  source?: string;
  position?: number;
  line?: number;
  name?: unknown;
  outcome: Outcome;
  id?: string;
  changed?: string[];
  error?: string;
}

export interface RunOptions {
  client: ApiClient;
  path: string;
  concurrency: number;
  /** Called after each record is done (progress, verbose lines). */
  onDone?: (r: RecordResult, done: number, total: number) => void;
  /** Resolves when sending must stop (Ctrl-C); requests in flight still finish. */
  stop: Promise<unknown>;
}

const base = (item: PlanItem): Pick<RecordResult, 'source' | 'position' | 'line' | 'name'> => ({
  source: item.rec.src.source,
  position: item.rec.src.position,
  ...(item.rec.src.line !== undefined ? { line: item.rec.src.line } : {}),
  name: item.rec.name,
});

/** Sends the plan with bounded concurrency over one connection pool; one failure never stops the rest. */
export async function execute(
  items: PlanItem[],
  o: RunOptions,
): Promise<{ results: RecordResult[]; interrupted: boolean }> {
  const results: RecordResult[] = new Array(items.length);
  let next = 0;
  let done = 0;
  let stopped = false;
  void o.stop.then(() => (stopped = true));
  const finish = (i: number, r: RecordResult) => {
    results[i] = r;
    // The record is sent: let its body go, so memory shrinks as the import proceeds.
    items[i].rec.json = '';
    items[i].patch = undefined;
    done++;
    o.onDone?.(r, done, items.length);
  };
  const worker = async () => {
    while (!stopped && next < items.length) {
      const i = next++;
      const item = items[i];
      if (item.action === 'unchanged') {
        finish(i, { ...base(item), outcome: 'unchanged', id: item.id });
        continue;
      }
      if (item.action === 'error') {
        finish(i, { ...base(item), outcome: 'failed', id: item.id, error: item.error });
        continue;
      }
      try {
        if (item.action === 'create') {
          const created = await o.client.request<{ id: string }>('POST', o.path, new JsonText(item.rec.json));
          finish(i, { ...base(item), outcome: 'created', id: created.id });
        } else {
          await o.client.request('PATCH', `${o.path}/${encodeURIComponent(item.id!)}`, item.patch);
          finish(i, { ...base(item), outcome: 'updated', id: item.id, changed: item.changes!.map((c) => c.field) });
        }
      } catch (err) {
        const details = (err as { details?: string[] }).details ?? [];
        const message = [(err as Error).message, ...details].join('; ');
        finish(i, { ...base(item), outcome: 'failed', id: item.id, error: message });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, items.length)) }, worker));
  for (let i = 0; i < items.length; i++)
    if (!results[i]) results[i] = { ...base(items[i]), outcome: 'not-sent', id: items[i].id };
  return { results, interrupted: stopped };
}

export interface Summary {
  created: number;
  updated: number;
  unchanged: number;
  /** With --prune: the records deleted because the file does not list them. */
  deleted?: number;
  failed: number;
  notSent: number;
  interrupted: boolean;
  records: RecordResult[];
}

export function summarize(results: RecordResult[], interrupted: boolean, pruned = false): Summary {
  const count = (o: Outcome) => results.filter((r) => r.outcome === o).length;
  return {
    created: count('created'),
    updated: count('updated'),
    unchanged: count('unchanged'),
    ...(pruned ? { deleted: count('deleted') } : {}),
    failed: count('failed'),
    notSent: count('not-sent'),
    interrupted,
    records: results,
  };
}
