// Covers: src/core/sync/ src/output/sync-view.ts
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import type { RecordResult } from '../../src/core/sync/execute.js';
import { runImport, type SyncView } from '../../src/core/sync/pipeline.js';
import { syncSpec } from '../../src/core/sync/spec.js';
import { coverages } from '../../src/resources/index.js';
import { TOKEN, testServer } from '../helpers/server.js';

// The import pipeline without a terminal: what it shows arrives at the view it is given, what it did is
// returned, and the server ends as the file says. The seed holds cov_acme_cbc (amount 15) and cov_acme_bmp on
// ctr_acme_2026, and one coverage on ctr_state_2026.

const acme = [
  { contract: 'ctr_acme_2026', name: 'CBC copay', type: 'deduction', paymentMethod: 'postpaid', amount: 20 },
  { contract: 'ctr_acme_2026', name: 'Lipids', type: 'override', percentage: 50 },
];

/** A view that writes nothing and keeps what it was told, in order. */
function recordingView(answer = true) {
  const told: string[] = [];
  const sent: RecordResult[] = [];
  const view: SyncView = {
    checked: () => told.push('checked'),
    warning: (text) => told.push(`warning ${text}`),
    async planned(plan, deletions) {
      const counts = { create: 0, update: 0, unchanged: 0, error: 0 };
      for await (const batch of plan) for (const item of batch) counts[item.action]++;
      told.push(`planned, ${deletions?.length ?? 0} to delete`);
      return counts;
    },
    async confirm(deletions) {
      told.push(`confirm ${deletions.map((d) => d.id).join(' ')}`);
      return answer;
    },
    sending: (total) => told.push(`sending ${total}`),
    sent: (r) => void sent.push(r),
    interrupted: () => told.push('interrupted'),
    stopped: () => told.push('stopped'),
    async summary(tally) {
      told.push(`summary ${tally.counts.created} created`);
    },
  };
  return { told, sent, view };
}

async function setup() {
  const server = await testServer({ seed: true });
  const input = (o: { dryRun?: boolean; prune?: boolean; yes?: boolean } = {}) => ({
    read: async (each: (r: { source: string; position: number; value: Record<string, unknown> }) => void) => {
      for (const [i, value] of acme.entries()) each({ source: 'c.json', position: i + 1, value });
    },
    strict: false,
    dryRun: o.dryRun ?? false,
    prune: o.prune ?? false,
    yes: o.yes ?? false,
    concurrency: 4,
    interrupt: () => ({ promise: new Promise<never>(() => undefined), cancel: () => undefined }),
  });
  const connect = async () => new ApiClient({ baseUrl: server.url, token: TOKEN, timeoutMs: 10_000 });
  const names = async () =>
    ((await server.call('GET', '/insurance-coverages')).body as { contract: string; name: string }[])
      .map((r) => `${r.contract}/${r.name}`)
      .sort();
  return { server, input, connect, names };
}

describe('runImport, the import pipeline', () => {
  it('a dry run hands the plan and the deletions to the view, returns its counts and sends nothing', async () => {
    const { input, connect, names } = await setup();
    const before = await names();
    const { told, view } = recordingView();
    const result = await runImport(await syncSpec(coverages), input({ dryRun: true, prune: true }), connect, view);
    expect(result).toEqual({
      dryRun: true,
      plan: { create: 1, update: 1, unchanged: 0, error: 0 },
      deleting: 1,
    });
    expect(told).toEqual(['checked', 'planned, 1 to delete']);
    expect(await names()).toEqual(before);
  });

  it('sends, prunes after asking the view, and returns the counts; the server holds the file', async () => {
    const { server, input, connect, names } = await setup();
    const otherContracts = (await names()).filter((n) => !n.startsWith('ctr_acme_2026/'));
    const { told, sent, view } = recordingView();
    const result = await runImport(await syncSpec(coverages), input({ prune: true }), connect, view);
    expect(result).toMatchObject({ dryRun: false, counts: { created: 1, updated: 1, deleted: 1, failed: 0 } });
    expect(told.slice(0, 3)).toEqual(['checked', 'confirm cov_acme_bmp', 'sending 3']);
    expect(told).toContain('summary 1 created');
    expect(sent.map((r) => r.outcome).sort()).toEqual(['created', 'deleted', 'updated']);
    expect(otherContracts).toHaveLength(1);
    expect(await names()).toEqual(['ctr_acme_2026/CBC copay', 'ctr_acme_2026/Lipids', ...otherContracts]);
    expect((await server.call('GET', '/insurance-coverages/cov_acme_cbc')).body.amount).toBe(20);
  });

  it('a deletion the view refuses sends nothing', async () => {
    const { input, connect, names } = await setup();
    const before = await names();
    const { told, view } = recordingView(false);
    await expect(runImport(await syncSpec(coverages), input({ prune: true }), connect, view)).rejects.toThrow(
      'nothing was sent or deleted',
    );
    expect(told).toEqual(['checked', 'confirm cov_acme_bmp']);
    expect(await names()).toEqual(before);
  });
});
