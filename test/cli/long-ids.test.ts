// Covers: src/core/short-ids.ts src/commands/resource/find.ts src/commands/notifications/show-run.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

// Issue 64: a real service's ids are UUIDs. A view shows an id whole or as the shortest prefix no other
// fetched id begins with (at least 8 characters past `ntf_`, as git shows 7 of a hash), and the commands
// that take an id take that prefix when it begins one id alone.

const PAIR = ['ntf_3f2b9c1e-8d4a-4e7b-9a61-0c5d2e7f1a93', 'ntf_3f2b9c1e-77aa-4e7b-9a61-0c5d2e7f1a94'];
const LONE = 'ntf_a0c4e5d6-1b2c-4d3e-8f90-123456789abc';
const SHORT = ['ntf_queue_1', 'ntf_stock_low'];
const IDS = [...PAIR, LONE, ...SHORT];
const MEASURE = 'msr_7c9e6679-7425-40de-944b-e07fc1f90ae7';

async function setup() {
  const dir = await tempDir();
  const dataFile = join(dir, 'data.json');
  const now = Date.now();
  const notifications = IDS.map((id, i) => ({
    id,
    createdAt: now - (i + 1) * 60_000,
    type: 'warehouse',
    code: i % 2 ? 'stock-low' : 'new-queue-item',
    title: `Stock low: urine collection cups at the central lab, batch ${i + 1}`,
    body: 'Only 12 urine collection cups are left.',
    meta: { item: 'isc_urine_cups', remaining: 12 },
    seenBy: [],
  }));
  const measure = { id: MEASURE, createdAt: now, createdBy: 'x', test: 'tst_bmp', name: 'Potassium', type: 'numeric' };
  await writeFile(dataFile, JSON.stringify({ notifications, diagnosticMeasures: [measure] }));
  const server = await testServer({ dataFile });
  const env = cliEnv(server.url, dir);
  return (argv: string[], extra: Record<string, string> = {}) => runCli(argv, { env: { ...env, ...extra }, cwd: dir });
}

/** The ids that begin with `shown`. */
const begun = (shown: string) => IDS.filter((id) => id.startsWith(shown));

describe('a long id in a list', () => {
  it('is shown as its shortest unique prefix at 80 columns, never cut, and leaves the titles their room', async () => {
    const cli = await setup();
    const r = await cli(['notifications', 'list', '-o', 'table'], { COLUMNS: '80' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const [header, ...rows] = r.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ID +TIME +TYPE +CODE +TITLE +SEEN$/);
    expect(rows).toHaveLength(IDS.length);
    const shown = rows.map((l) => l.split(' ')[0]);
    for (const [i, id] of shown.entries()) {
      expect(rows[i].length).toBeLessThanOrEqual(80);
      expect(id).not.toContain('…');
      // Each names one id, and no fewer characters would (uniqueness, as git's short hashes).
      expect(begun(id)).toHaveLength(1);
      if (id !== begun(id)[0]) expect(id.length).toBeGreaterThanOrEqual('ntf_'.length + 8);
    }
    // The two that share `ntf_3f2b9c1e-` need one character past it: shortest, and the same length for all.
    expect(shown.slice(0, 3)).toEqual(['ntf_3f2b9c1e-8', 'ntf_3f2b9c1e-7', 'ntf_a0c4e5d6-1']);
    expect(begun('ntf_3f2b9c1e-')).toHaveLength(2);
    // Short ids are words: whole.
    expect(shown.slice(3)).toEqual(SHORT);
    // The title keeps its room: 30 characters and more of its own at 80 columns.
    for (const row of rows) expect(row).toMatch(/Stock low: urine collection cu\S*/);
  });

  it('keeps every id whole in a pipe, where no width is set', async () => {
    const cli = await setup();
    const r = await cli(['notifications', 'list', '-o', 'table']);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((l) => l.split(' ')[0]),
    ).toEqual(IDS);
  });
});

describe('a prefix where an id goes', () => {
  it('show, show --peek and measures show take a prefix that begins one id', async () => {
    const cli = await setup();
    const shown = await cli(['notifications', 'show', 'ntf_3f2b9c1e-8', '-o', 'json']);
    expect([shown.code, JSON.parse(shown.stdout).id]).toEqual([0, PAIR[0]]);
    const peek = await cli(['notifications', 'show', 'ntf_a0c4e5d6', '--peek', '-o', 'json']);
    expect([peek.code, JSON.parse(peek.stdout).id]).toEqual([0, LONE]);
    const measure = await cli(['measures', 'show', 'msr_7c9e6679', '-o', 'json']);
    expect([measure.code, JSON.parse(measure.stdout).id]).toEqual([0, MEASURE]);
  });

  it('one that begins several ids is refused (exit 2), naming them; nothing is read or marked', async () => {
    const cli = await setup();
    for (const extra of [[], ['--peek']]) {
      const r = await cli(['notifications', 'show', 'ntf_3f2b9c1e', ...extra, '-o', 'json']);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('2 notifications have ids that begin "ntf_3f2b9c1e"');
      for (const id of PAIR) expect(r.stderr).toContain(id);
    }
    const list = JSON.parse((await cli(['notifications', 'list', '-o', 'json'])).stdout) as { seenBy: string[] }[];
    expect(list.every((n) => n.seenBy.length === 0)).toBe(true);
  });

  it('one that begins no id is the 404 it was (exit 3)', async () => {
    const cli = await setup();
    const r = await cli(['notifications', 'show', 'ntf_ffffffff', '-o', 'json']);
    expect(r.code).toBe(3);
  });
});
