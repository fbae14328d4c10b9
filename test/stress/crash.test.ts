// Covers: src/server/store/
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

const headers = { authorization: 'Bearer t', 'content-type': 'application/json' };

/** A data file of `n` measures already on disk, as a lab's catalog after a year. */
async function catalog(file: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, (_, i) => `msr_base${i}`);
  const records = ids.map((id, i) => ({
    id,
    createdAt: 1_790_000_000_000,
    createdBy: 'acc',
    test: `tst_${i % 500}`,
    name: `Base ${i}`,
    type: 'numeric',
    unit: 'mg/dL',
    referenceRanges: [{ id: `rr_${i}`, min: 1, max: 5, sex: 'all', ageMin: 18 }],
    panicRanges: [{ max: 0.5, sex: 'all' }],
  }));
  await writeFile(file, JSON.stringify({ formatVersion: 2, diagnosticMeasures: records }));
  return ids;
}

describe('durability under kill -9', () => {
  it('keeps every acknowledged write across SIGKILL during concurrent writes', async () => {
    await crashRounds(0, 10);
  });

  it('keeps them at 100,000 records too', async () => {
    await crashRounds(100_000, 3);
  });
});

async function crashRounds(base: number, rounds: number): Promise<void> {
  {
    const dir = await tempDir();
    const file = join(dir, 'data.json');
    const baseIds = await catalog(file, base);
    const acked = new Map<string, string>();
    const deleted = new Set<string>();
    // Values whose PATCH was sent but never answered: the kill may or may not have kept them.
    const unanswered = new Map<string, Set<string>>();
    // Ids whose DELETE was sent but never answered.
    const maybeDeleted = new Set<string>();
    let operations = 0;
    for (let round = 0; round < rounds; round++) {
      const { url, proc } = await serveProcess(['--data', file, '--token', 't']);
      let stop = false;
      // The kill lands after a drawn number of answered operations, not after a time: on a busy machine a
      // timed kill found the server still starting and the round tested nothing.
      const target = operations + 12 + Math.floor(Math.random() * 30);
      let reached: () => void = () => {};
      const enough = new Promise<void>((resolve) => {
        reached = resolve;
      });
      const worker = async (w: number) => {
        for (let i = 0; !stop; i++) {
          try {
            const known = [...acked.keys()];
            if (i % 5 === 4 && known.length > 0) {
              const id = known[(w * 7 + i) % known.length];
              const value = `r${round}w${w}i${i}`;
              if (!unanswered.has(id)) unanswered.set(id, new Set());
              unanswered.get(id)!.add(value);
              const r = await fetch(`${url}/diagnostic-measures/${id}`, {
                method: 'PATCH',
                headers,
                body: JSON.stringify({ description: value }),
              });
              if (r.status === 200) {
                unanswered.get(id)!.delete(value);
                if (acked.has(id)) acked.set(id, value);
              }
            } else if (i % 7 === 6 && known.length > 0) {
              const id = known[(w + i) % known.length];
              maybeDeleted.add(id);
              const r = await fetch(`${url}/diagnostic-measures/${id}`, { method: 'DELETE', headers });
              // 404: an earlier DELETE whose answer the kill cut off had removed it.
              if (r.status === 200 || r.status === 404) {
                acked.delete(id);
                deleted.add(id);
              }
              maybeDeleted.delete(id);
            } else {
              const r = await fetch(`${url}/diagnostic-measures`, {
                method: 'POST',
                headers,
                body: JSON.stringify({ test: 'tst', name: `r${round}w${w}i${i}`, description: 'new' }),
              });
              if (r.status === 200) acked.set((await r.json()).id, 'new');
            }
            if (++operations >= target) reached();
          } catch {
            return; // the server died mid-request: that request was never acknowledged
          }
        }
      };
      const workers = Array.from({ length: 8 }, (_, w) => worker(w));
      // Every worker ending first means the server died on its own, which the checks below then show.
      await Promise.race([enough, Promise.all(workers)]);
      proc.kill('SIGKILL');
      stop = true;
      await Promise.all(workers);
      await proc;
    }
    const { url, proc } = await serveProcess(['--data', file, '--token', 't']);
    const list: { id: string; description: string }[] = await (
      await fetch(`${url}/diagnostic-measures`, { headers })
    ).json();
    const byId = new Map(list.map((m) => [m.id, m.description]));
    for (const [id, description] of acked) {
      if (maybeDeleted.has(id) && !byId.has(id)) continue;
      expect(byId.has(id), `acknowledged ${id} is missing`).toBe(true);
      // The last acknowledged value, or one whose answer the kill cut off; never an older one.
      const allowed = [description, ...(unanswered.get(id) ?? [])];
      expect(allowed, `${id} holds ${byId.get(id)}`).toContain(byId.get(id));
    }
    for (const id of deleted) expect(byId.has(id), `deleted ${id} came back`).toBe(false);
    // The records that were there before are all still there.
    expect(baseIds.filter((id) => !byId.has(id))).toEqual([]);
    proc.kill('SIGTERM');
    await proc;
    JSON.parse(await readFile(file, 'utf8'));
    console.log(
      `crash test on ${base} records: ${rounds} rounds, ${operations} acknowledged operations, ` +
        `${acked.size} records checked`,
    );
    expect(operations).toBeGreaterThan(rounds * 10);
  }
}
