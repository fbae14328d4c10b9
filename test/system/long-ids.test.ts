import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
import { binOnPath } from '../helpers/logged-in.js';
import { terminal } from '../helpers/terminal.js';
import { tempDir } from '../helpers/tmp.js';

// Issue 64's morning at a real terminal, with a service's UUID ids among short ones: no id cut in the list,
// a prefix the list shows taken by `show`, a long hint wrapped at spaces, and browse's detail scrolled to its
// last meta key.

const TOKEN = 'long-ids-token-0123456789';
const UUID = (i: number) => `ntf_${(0x3f2b9c1e + i).toString(16)}-8d4a-4e7b-9a61-0c5d2e7f1a93`;
const META = Object.fromEntries([
  ...Array.from({ length: 14 }, (_, i) => [`item${i}`, `isc_item_${i}`]),
  ['account', 'acc_lab_maria'],
  ['by', 'warehouse-robot'],
]);

async function open(columns: number, rows: number) {
  const dir = await tempDir();
  const data = join(dir, 'data.json');
  const now = Date.now();
  const notifications = Array.from({ length: 12 }, (_, i) => ({
    id: i % 3 === 0 ? UUID(i) : `ntf_short_${i}`,
    createdAt: now - i * 60_000,
    type: 'warehouse',
    code: 'stock-low',
    title: `Stock low: urine collection cups at the central lab, number ${i}`,
    body: 'Only 12 urine collection cups are left.',
    meta: i === 0 ? META : { item: 'isc_urine_cups' },
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
  return { server, term, ids: notifications.map((n) => n.id) };
}

for (const [columns, rows] of [
  [80, 24],
  [100, 30],
]) {
  describe(`UUID ids at ${columns} × ${rows}`, () => {
    it('no id cut in the list, a shown prefix taken by show, browse scrolled to the last meta key', async () => {
      const { server, term, ids } = await open(columns, rows);
      try {
        const list = await term.run('clinadmin notifications list --no-pager');
        for (const l of list) expect(l.length, l).toBeLessThanOrEqual(columns);
        const shown = list.filter((l) => l.startsWith('ntf_')).map((l) => l.split(' ')[0]);
        expect(shown).toHaveLength(12);
        // Each id shown names exactly one notification: whole, or a prefix no other id begins with.
        for (const id of shown) expect(ids.includes(id) || ids.filter((x) => x.startsWith(id)).length === 1).toBe(true);
        // One with a short meta, so its whole view fits the screen.
        const prefix = shown.find((id) => !ids.includes(id) && !ids[0].startsWith(id))!;
        const full = ids.find((x) => x.startsWith(prefix))!;
        expect(prefix.length).toBeGreaterThanOrEqual('ntf_'.length + 8);
        const show = await term.run(`clinadmin notifications show ${prefix} --peek --no-pager`);
        expect(show[0]).toBe(`Stock low: urine collection cups at the central lab, number ${ids.indexOf(full)}`);
        expect(show.join('\n')).toContain(full);

        // A long typo hint wraps at spaces, never inside a word, and is never cut.
        const typo = 'wharehouse-stock-and-supplies-of-the-central-laboratory';
        const hint = await term.run(`clinadmin notifications list --type ${typo}`);
        for (const l of hint) expect(l.length, l).toBeLessThanOrEqual(columns);
        expect(hint.join(' ')).toBe(`no notifications of type "${typo}"; types here: warehouse`);

        await term.clear();
        await term.type('-l', 'clinadmin notifications browse');
        await term.type('Enter');
        await expect.poll(term.screen, { timeout: 15_000 }).toContain('item0: isc_item_0');
        // Below the fold, and said so, with the key that shows it.
        expect(await term.screen()).not.toContain('by: warehouse-robot');
        expect(await term.screen()).toMatch(/↓ \d+ more lines? · space/);
        for (let i = 0; i < 10 && !(await term.screen()).includes('by: warehouse-robot'); i++) {
          const before = await term.screen();
          await term.type('Space');
          await expect.poll(term.screen, { timeout: 10_000 }).not.toBe(before);
        }
        const screen = await term.screen();
        expect(screen).toContain('account: acc_lab_maria');
        expect(screen).toContain('by: warehouse-robot');
        expect(screen).toMatch(/↑ \d+ lines? above · b/);
        for (const l of screen.split('\n')) expect(l.length, l).toBeLessThanOrEqual(columns);
        await term.type('q');
        await term.prompt();
      } finally {
        server.proc.kill('SIGTERM');
        await server.proc.catch(() => undefined);
      }
    }, 120_000);
  });
}
