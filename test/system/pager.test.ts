// Covers: src/output/pager.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
import { binOnPath } from '../helpers/logged-in.js';
import { terminal } from '../helpers/terminal.js';
import { tempDir } from '../helpers/tmp.js';

// Issue 64: long output pages at a terminal, as gh and git page it: through `less -FRX` unless
// CLINADMIN_PAGER or PAGER says otherwise, the table laid out to the terminal's width inside it.

const TOKEN = 'pager-token-0123456789';

async function open(columns: number, rows: number) {
  const dir = await tempDir();
  const data = join(dir, 'data.json');
  const now = Date.now();
  const notifications = Array.from({ length: 60 }, (_, i) => ({
    id: i % 10 === 0 ? `ntf_${i.toString(16).padStart(8, '0')}-8d4a-4e7b-9a61-0c5d2e7f1a93` : `ntf_short_${i}`,
    createdAt: now - i * 60_000,
    type: 'warehouse',
    code: 'stock-low',
    title: `Stock low: urine collection cups at the central lab, number ${i}`,
    body: '',
    seenBy: [],
  }));
  await writeFile(data, JSON.stringify({ notifications }));
  const server = await serveProcess(['--data', data, '--token', `${TOKEN}:acc_support`]);
  const env = { CLINADMIN_CONFIG_DIR: join(dir, 'config') };
  const login = await clinadmin(['login', '--base-url', server.url, '--token-stdin', '--account', 'acc_support'], {
    env,
    input: TOKEN,
  });
  expect(login.exitCode).toBe(0);
  const term = await terminal(columns, { ...env, PATH: `${await binOnPath()}:${process.env.PATH}` }, rows);
  return { server, term };
}

for (const [columns, rows] of [
  [80, 24],
  [100, 30],
]) {
  describe(`a long list at ${columns} × ${rows}`, () => {
    it('pages through less at the terminal width; q gives it back; --no-pager and PAGER=cat do not', async () => {
      const { server, term } = await open(columns, rows);
      try {
        await term.type('-l', 'clinadmin notifications list --limit 0');
        await term.type('Enter');
        // less's own prompt on the last row: the list waits there, a screen of it shown.
        await expect.poll(async () => (await term.screen()).split('\n').at(-1), { timeout: 15_000 }).toMatch(/^:/);
        const screen = (await term.screen()).split('\n');
        const header = screen.findIndex((l) => l.startsWith('ID '));
        expect(screen[header]).toMatch(/^ID\s+TIME\s+TYPE\s+CODE\s+TITLE\s+SEEN$/);
        const rowsShown = screen.filter((l) => l.startsWith('ntf_'));
        expect(rowsShown.length).toBeGreaterThan(rows - 5);
        expect(rowsShown.length).toBeLessThan(60);
        for (const l of screen) expect(l.trimEnd().length, l).toBeLessThanOrEqual(columns);
        expect(await term.wrapped()).toBe(0);
        // Ids whole or as their prefix: never cut.
        for (const l of rowsShown) expect(l.split(' ')[0]).not.toContain('…');
        // Ctrl-C is the pager's: the list stays, and q leaves it with exit 0.
        await term.type('C-c');
        await term.type('q');
        await term.prompt();
        expect(await term.status()).toBe(0);
        // Straight to the terminal: everything at once, the prompt back without a key.
        for (const line of [
          'clinadmin notifications list --limit 0 --no-pager',
          'PAGER=cat clinadmin notifications list --limit 0',
          'CLINADMIN_PAGER= clinadmin notifications list --limit 0',
        ]) {
          const shown = await term.run(line);
          expect(shown.filter((l) => l.startsWith('ntf_')).length, line).toBeGreaterThan(rows - 5);
        }
      } finally {
        server.proc.kill('SIGTERM');
        await server.proc.catch(() => undefined);
      }
    }, 120_000);
  });
}
