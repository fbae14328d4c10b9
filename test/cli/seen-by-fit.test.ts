// Covers: src/output/fit.ts src/commands/notifications/list-run.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

// Issue 64: "who has seen it" at 80 columns. -o wide keeps SEEN BY (in SEEN's place: it names the accounts,
// yours among them), and a list of accounts is never cut mid-name: whole names and how many more.

const SEEN = ['acc_lab_maria', 'acc_lab_jose', 'acc_support'];

async function setup() {
  const dir = await tempDir();
  const dataFile = join(dir, 'data.json');
  const now = Date.now();
  const notifications = [
    ['ntf_seen_all', SEEN],
    ['ntf_seen_one', ['acc_lab_maria']],
    ['ntf_seen_none', []],
  ].map(([id, seenBy], i) => ({
    id,
    createdAt: now - (i + 1) * 60_000,
    type: 'warehouse',
    code: 'stock-low',
    title: `Stock low: urine collection cups at the central lab, batch ${i + 1}`,
    body: 'Only 12 urine collection cups are left.',
    seenBy,
  }));
  await writeFile(dataFile, JSON.stringify({ notifications }));
  const server = await testServer({ dataFile });
  const env = cliEnv(server.url, dir);
  return (argv: string[], columns: number) =>
    runCli(argv, { env: { ...env, COLUMNS: String(columns), CLINADMIN_ACCOUNT: 'acc_support' }, cwd: dir });
}

/** The cell of `id`'s row from `at` (the column's start in the header) to the end of the line. */
const cellOf = (lines: string[], header: string, id: string) => {
  const at = lines[0].indexOf(header);
  return lines
    .find((l) => l.startsWith(`${id} `))!
    .slice(at)
    .trim();
};

describe('SEEN BY at 80 columns', () => {
  it('-o wide keeps SEEN BY, names whole and how many more, and says it left out BODY', async () => {
    const cli = await setup();
    const r = await cli(['notifications', 'list', '-o', 'wide'], 80);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +TIME +TYPE +CODE +TITLE +SEEN BY$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(r.stderr).toBe('note: a column left out to fit 80: BODY\n');
    // Three accounts: a name whole, or none, and the count of the rest adds up to three.
    const all = cellOf(lines, 'SEEN BY', 'ntf_seen_all');
    const [, names, more] = /^(?:(.*) )?\+(\d+)$/.exec(all)!;
    const shown = names ? names.split(', ') : [];
    for (const name of shown) expect(SEEN).toContain(name);
    expect(shown.length + Number(more)).toBe(3);
    // The title keeps 30 characters of its own.
    expect(lines[1]).toContain('Stock low: urine collection cu');
  });

  it('--fields cuts a list by whole names: `acc_lab_maria +2`, and whole when it fits', async () => {
    const cli = await setup();
    const r = await cli(['notifications', 'list', '--fields', 'id,title,seenBy', '-o', 'table'], 80);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    // The issue's own example: the title keeps 30 characters, the list a whole name and the count.
    expect(cellOf(lines, 'SEEN BY', 'ntf_seen_all')).toBe('acc_lab_maria +2');
    expect(lines[1]).toContain('Stock low: urine collection cu');
    expect(cellOf(lines, 'SEEN BY', 'ntf_seen_one')).toBe('acc_lab_maria');
    const wide = await cli(['notifications', 'list', '--fields', 'id,seenBy', '-o', 'table'], 80);
    expect(cellOf(wide.stdout.split('\n'), 'SEEN BY', 'ntf_seen_all')).toBe(SEEN.join(', '));
  });
});
