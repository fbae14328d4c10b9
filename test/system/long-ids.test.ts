// Covers: src/core/short-ids.ts src/commands/notifications/watch-run.ts src/output/browse-view.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
import { binOnPath } from '../helpers/logged-in.js';
import { terminal } from '../helpers/terminal.js';
import { tempDir } from '../helpers/tmp.js';

// Issue 64's morning at a real terminal, with a service's UUID ids among short ones: no id cut in the list,
// a prefix the list shows taken by `show`, a long hint wrapped at spaces, browse's detail scrolled to its
// last meta key, and `watch --since` replaying them and printing a UUID arrival live, its id whole or a prefix.

const TOKEN = 'long-ids-token-0123456789';
const ADMIN = 'long-ids-admin-9876543210';
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
  const server = await serveProcess([
    '--data',
    data,
    '--token',
    `${TOKEN}:acc_support`,
    '--token',
    `${ADMIN}:acc_ci:admin`,
  ]);
  const env = { CLINADMIN_CONFIG_DIR: join(dir, 'config') };
  const login = await clinadmin(['login', '--base-url', server.url, '--token-stdin', '--account', 'acc_support'], {
    env,
    input: TOKEN,
  });
  expect(login.exitCode).toBe(0);
  const term = await terminal(columns, { ...env, PATH: `${await binOnPath()}:${process.env.PATH}` }, rows);
  // A notification arriving while watch runs, merged in as a service would add it.
  const arrive = async (note: Record<string, unknown>) => {
    const file = join(dir, 'arrival.json');
    await writeFile(file, JSON.stringify({ notifications: [note] }));
    const r = await clinadmin(['sandbox', 'load', file, '--merge'], { env: { ...env, CLINADMIN_TOKEN: ADMIN } });
    expect(r.exitCode, r.stderr).toBe(0);
  };
  return { server, term, arrive, env, ids: notifications.map((n) => n.id) };
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

    it('watch --since replays and prints a live UUID arrival, no id cut, each line within the width', async () => {
      const { server, term, arrive, env, ids } = await open(columns, rows);
      try {
        const live = 'ntf_9c4d7a20-1b3e-4f5a-8c6d-2e7f1a93b0c4';
        const title = 'Arrived live: saline bags at the ward 7 store room, reorder before the weekend';
        const all = [...ids, live];
        await term.clear();
        await term.type('-l', 'clinadmin notifications watch --since 1h --interval 0.3');
        await term.type('Enter');
        await expect.poll(term.screen, { timeout: 15_000 }).toContain('watching for notifications');
        await arrive({
          id: live,
          createdAt: Date.now(),
          type: 'warehouse',
          code: 'stock-low',
          title,
          body: 'Only 3 bags are left.',
          meta: {},
          seenBy: [],
        });
        await expect.poll(term.screen, { timeout: 15_000 }).toMatch(/^.*Arrived live: .*\)$/m);
        const screen = (await term.screen()).split('\n');
        // watch ends on Ctrl-C (the terminal echoes `^C`), and the shell's prompt follows.
        await term.type('C-c');
        await expect
          .poll(async () => (await term.screen()).trimEnd().split('\n').at(-1), { timeout: 10_000 })
          .toMatch(/\$$/);
        for (const l of screen) expect(l.length, l).toBeLessThanOrEqual(columns);
        // Each arrival's line: `time  type  code  title  (id)`, the replayed oldest first, then the live one.
        const lines = screen.filter((l) => /^\d\d-\d\d \d\d:\d\d /.test(l));
        expect(lines).toHaveLength(13);
        const shown = lines.map((l) => / {2}\((ntf_[^()\s]+)\)$/.exec(l)?.[1]);
        // Each id shown names exactly one notification: whole, or a prefix no other id begins with.
        for (const [i, id] of shown.entries()) {
          expect(id, lines[i]).toBeDefined();
          expect(all.includes(id!) || all.filter((x) => x.startsWith(id!)).length === 1, id).toBe(true);
        }
        // --since 1h replays the 12 of the last hour oldest first, then the live one.
        expect(shown.map((id) => all.find((x) => x.startsWith(id!)))).toEqual([...ids].reverse().concat(live));
        // At least 30 characters of its title at 80 columns (issue 64).
        expect(lines[12]).toContain(title.slice(0, 30));
        // Each prefix shown is one show takes, naming the record it stands for (the UUID among them).
        const prefixes = shown.filter((id) => !all.includes(id!)) as string[];
        expect(prefixes).toContain(shown.find((id) => ids[0].startsWith(id!)));
        for (const prefix of prefixes) {
          expect(prefix.length).toBeGreaterThanOrEqual('ntf_'.length + 8);
          const r = await clinadmin(['notifications', 'show', prefix, '--peek', '-o', 'json'], { env });
          expect(r.exitCode, r.stderr).toBe(0);
          expect(JSON.parse(r.stdout).id).toBe(all.find((x) => x.startsWith(prefix)));
        }
        // And at the terminal, the live one's view by the prefix watch printed.
        const show = await term.run(`clinadmin notifications show ${shown[12]} --peek --no-pager`);
        expect(show[0]).toBe(title);
        expect(show.join('\n')).toContain(live);
      } finally {
        server.proc.kill('SIGTERM');
        await server.proc.catch(() => undefined);
      }
    }, 120_000);
  });
}
