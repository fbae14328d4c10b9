// Covers: src/commands/notifications/browse-run.ts src/output/browse-view.ts src/output/browse-model.ts
import { describe, expect, it } from 'vitest';
import { serveProcess } from '../helpers/bin.js';
import { binOnPath, E2E_TOKEN, loggedIn } from '../helpers/logged-in.js';
import { terminal } from '../helpers/terminal.js';

// `notifications browse` as support staff use it: a real terminal (tmux) at 80 × 24 and 120 × 40, keys
// sent as a person types them, and the screen read back as drawn.

type Note = { id: string; title: string; seenBy: string[] };

for (const [columns, rows] of [
  [80, 24],
  [120, 40],
] as const) {
  describe(`notifications browse at ${columns} × ${rows}`, () => {
    const open = async (interval = '0.3') => {
      const session = await loggedIn();
      const path = `${await binOnPath()}:${process.env.PATH}`;
      const term = await terminal(columns, { ...session.env, PATH: path }, rows);
      const lines = async () => (await term.screen()).split('\n');
      const until = (re: RegExp | string, timeout = 10_000) =>
        expect.poll(term.screen, { timeout }).toMatch(typeof re === 'string' ? new RegExp(literal(re)) : re);
      const notes = async (): Promise<Note[]> =>
        (await fetch(`${session.server.url}/notifications`, {
          headers: { authorization: `Bearer ${E2E_TOKEN}` },
        }).then((r) => r.json())) as Note[];
      // Something on the shell's own screen, to see it again after leaving.
      await term.type('-l', 'echo shell-before-browse');
      await term.type('Enter');
      await until(/^shell-before-browse$/m);
      await term.prompt();
      await term.type('-l', `clinadmin notifications browse --interval ${interval}; echo browse-exit=$?`);
      await term.type('Enter');
      await until('Notifications  3 of 3');
      // While browsing: the alternate screen, the cursor hidden.
      expect(await term.modes()).toMatch(/^cursor=0 alternate=1/);
      return { ...session, term, lines, until, notes };
    };
    const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const selectedRow = (lines: string[]) => lines.find((l) => l.startsWith('>')) ?? '';

    it('lays out list and detail to the terminal; moves, opens one (seen), filters, resizes, and leaves', async () => {
      // Polling once an hour: all it shows comes from the keys, the open and the resize themselves.
      const { term, lines, until, notes } = await open('3600');
      let screen = await lines();
      expect(screen).toHaveLength(rows);
      for (const l of screen) expect(l.length, l).toBeLessThanOrEqual(columns);
      // Each row shows at least the first 20 characters of its title, and * for unseen by this account.
      for (const title of ['Stock low: urine cups', 'New queue item: reagent pack', 'New queue item: collection tubes'])
        expect(
          screen.some((l) => /^.\*/.test(l) && l.includes(title.slice(0, 20))),
          title,
        ).toBe(true);
      // Every key is in the help line, whole at 80 columns too.
      expect(screen[rows - 1]).toMatch(
        /↑↓.*jk.*PgUp.*Home.*End.*Enter open.*\/ filter.*u unseen.*t type.*r re.*q quit$/,
      );
      expect(selectedRow(screen)).toContain('Stock low: urine cups');
      // The detail of the selected one: title, type · code · id, time and age, seen by, body, meta.
      const detail = screen.join('\n');
      expect(detail).toContain(' warehouse · stock-low · ntf_stock_low');
      expect(detail).toMatch(/ \d{4}-\d\d-\d\d \d\d:\d\d \(\d+ (s|min|h|d) ago\)/);
      expect(detail).toContain('Only 12 urine collection cups are left');
      expect(detail).toContain('remaining: 12');
      expect(detail).toContain('seen by nobody yet');

      await term.type('j');
      await until(/^>.*reagent pack/m);
      await term.type('Down');
      await until(/^>.*collection tubes/m);
      await term.type('k');
      await until(/^>.*reagent pack/m);
      // Moving reads nothing: no notification is marked seen by it.
      const before = await notes();
      expect(before.filter((n) => n.seenBy.includes('acc_e2e'))).toEqual([]);
      await term.type('Enter');
      await until('opened ntf_queue_2');
      await until(/^> {3}\d{4}-.*reagent pack/m);
      await until('seen by acc_support, acc_e2e');
      // The server's seenBy changed for that one notification only.
      expect(await notes()).toEqual(
        before.map((n) => (n.id === 'ntf_queue_2' ? { ...n, seenBy: [...n.seenBy, 'acc_e2e'] } : n)),
      );

      await term.type('u');
      await until('2 of 3 · all types · unseen only');
      expect((await lines()).some((l) => l.includes('reagent pack'))).toBe(false);
      await term.type('u');
      await until('3 of 3 · all types');
      await term.type('/');
      await term.type('-l', 'tubes');
      await until('1 of 3 · all types · filter "tubes"');
      screen = await lines();
      const listRows = screen.filter((l) => /^[ >][ *][ +] \d{4}-/.test(l));
      expect(listRows).toHaveLength(1);
      expect(listRows[0]).toContain('New queue item: coll');
      expect(screen.some((l) => l.includes('urine cups'))).toBe(false);
      await term.type('Escape');
      await until('3 of 3 · all types');
      await term.type('t');
      await until('3 of 3 · type warehouse');
      await term.type('t');
      await until('3 of 3 · all types');
      // A resize redraws at once (SIGWINCH), to the new size's own key line: no poll comes to do it.
      const [x, y] = columns === 80 ? [120, 40] : [80, 24];
      await term.resize(x, y);
      await until(x >= 100 ? 'r refresh  q quit' : 'r reload  q quit');
      for (const l of await lines()) expect(l.length, l).toBeLessThanOrEqual(x);
      // With no filter, Esc leaves, and the shell's screen is back as it was.
      await term.type('Escape');
      await until(/^browse-exit=0$/m);
      screen = await lines();
      expect(screen).toContain('shell-before-browse');
      expect(screen.join('\n')).not.toContain('Notifications');
      expect(await term.modes()).toBe('cursor=1 alternate=0 keypad=0');
      // The shell reads lines again (raw mode is off): a command typed now runs.
      await term.type('-l', 'echo typed-after');
      await term.type('Enter');
      await until(/^typed-after$/m);
    }, 60_000);

    it('puts a new one on top without moving the selection, follows a resize, and outlives the server', async () => {
      const { term, lines, until, run, dir, server } = await open();
      await term.type('j');
      await until(/^>.*reagent pack/m);
      const created = await run(['measures', 'create', '--test', 'tst_x', '--name', 'Arrived while open']);
      expect(created.exitCode).toBe(0);
      await until('Measure created: Arr');
      let screen = await lines();
      const listed = screen.findIndex((l) => l.includes('Measure created: Arr'));
      expect(screen[listed]).toMatch(/^ \*\+ \d{4}-/);
      expect(listed).toBe(1);
      expect(selectedRow(screen)).toContain('reagent pack');
      await until('Notifications  4 of 4');

      const [x, y] = columns === 80 ? [120, 40] : [80, 24];
      await term.resize(x, y);
      await expect.poll(async () => (await lines()).length).toBe(y);
      // Each width's own key line (the wide one says "refresh", the short one "reload"), so the old frame,
      // cropped or not by tmux, never passes for the new one.
      await until(x >= 100 ? 'r refresh  q quit' : 'r reload  q quit');
      screen = await lines();
      for (const l of screen) expect(l.length, l).toBeLessThanOrEqual(x);
      expect(selectedRow(screen)).toContain('reagent pack');

      const port = new URL(server.url).port;
      server.proc.kill('SIGTERM');
      await server.proc.catch(() => undefined);
      await until('lost the server', 15_000);
      const back = await serveProcess([
        '--data',
        `${dir}/data.json`,
        '--port',
        port,
        '--token',
        `${E2E_TOKEN}:acc_e2e`,
      ]);
      await until('the server is back', 40_000);
      await term.type('q');
      await until(/^browse-exit=0$/m);
      back.proc.kill('SIGTERM');
      await back.proc.catch(() => undefined);
    }, 90_000);
  });
}

// A support engineer's afternoon: ~40 notifications, the selection moved down the list, new ones arriving
// (each created measure makes one), the server restarted on the same port, a filter after opening one.
for (const [columns, rows] of [
  [80, 24],
  [120, 40],
] as const) {
  describe(`notifications browse with 40 notifications at ${columns} × ${rows}`, () => {
    it('shows each arrival on top within a poll, marked, the selection kept, after a restart too', async () => {
      const session = await loggedIn();
      const create = async (url: string, name: string) => {
        const r = await fetch(`${url}/diagnostic-measures`, {
          method: 'POST',
          headers: { authorization: `Bearer ${E2E_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ test: 'tst_arrivals', name }),
        });
        expect(r.ok, await r.clone().text()).toBe(true);
      };
      // The seed's 3 notifications and 37 more, one per measure created.
      for (let i = 1; i <= 37; i++) await create(session.server.url, `Before ${String(i).padStart(2, '0')}`);
      const path = `${await binOnPath()}:${process.env.PATH}`;
      const term = await terminal(columns, { ...session.env, PATH: path }, rows);
      const lines = async () => (await term.screen()).split('\n');
      const until = (text: string) => expect.poll(term.screen, { timeout: 15_000 }).toContain(text);
      await term.type('-l', 'clinadmin notifications browse --interval 1; echo browse-exit=$?');
      await term.type('Enter');
      await until('Notifications  40 of 40');
      // The list, newest first: Before 37 at the top; five rows down is Before 32, on the 6th row.
      for (let i = 0; i < 5; i++) await term.type('j');
      await expect.poll(async () => (await lines())[6], { timeout: 10_000 }).toMatch(/^>.*Before 32/);
      const listRow = (screen: string[], text: string) => screen.findIndex((l) => l.includes(text));

      const arrives = async (name: string, total: number) => {
        await until(`Notifications  ${total} of ${total}`);
        const screen = await lines();
        for (const l of screen) expect(l.length, l).toBeLessThanOrEqual(columns);
        // The new one is the list's first row, marked + (arrived) and * (unseen by this account).
        expect(screen[1], screen.join('\n')).toMatch(new RegExp(`^ \\*\\+ \\d{4}-.*Measure created: ${name}`));
        // The selection is still on Before 32, on screen below it.
        const selected = screen.findIndex((l) => l.startsWith('>'));
        expect(screen[selected], screen.join('\n')).toContain('Before 32');
        expect(selected).toBeGreaterThan(listRow(screen, name));
        expect(screen[rows - 2], screen.join('\n')).toMatch(/^1 new/);
      };
      await create(session.server.url, 'Arrival A');
      await arrives('Arrival A', 41);

      const port = new URL(session.server.url).port;
      session.server.proc.kill('SIGTERM');
      await session.server.proc.catch(() => undefined);
      await until('lost the server');
      const back = await serveProcess([
        '--data',
        `${session.dir}/data.json`,
        '--port',
        port,
        '--token',
        `${E2E_TOKEN}:acc_e2e`,
      ]);
      await until('the server is back');
      await create(back.url, 'Arrival B');
      await arrives('Arrival B', 42);
      expect(listRow(await lines(), 'Arrival A')).toBe(2);

      // Opening one says so; a filter afterwards leaves nothing said of it.
      await term.type('Enter');
      await until('opened ntf_');
      await term.type('/');
      await term.type('-l', 'Before 1');
      await term.type('Enter');
      await until('Notifications  10 of 42');
      const screen = await lines();
      expect(screen.join('\n')).not.toContain('opened ntf_');
      await term.type('q');
      await until('browse-exit=0');
      back.proc.kill('SIGTERM');
      await back.proc.catch(() => undefined);
    }, 120_000);
  });
}

describe('notifications browse on an error', () => {
  it('gives the shell its screen and modes back when the server refuses the token', async () => {
    const session = await loggedIn();
    const path = `${await binOnPath()}:${process.env.PATH}`;
    const term = await terminal(80, { ...session.env, PATH: path, CLINADMIN_TOKEN: 'not-the-token' }, 24);
    await term.type('-l', 'echo shell-before-browse');
    await term.type('Enter');
    await expect.poll(term.screen, { timeout: 10_000 }).toMatch(/^shell-before-browse$/m);
    await term.prompt();
    await term.type('-l', 'clinadmin notifications browse; echo browse-exit=$?');
    await term.type('Enter');
    await expect.poll(term.screen, { timeout: 10_000 }).toMatch(/^browse-exit=4$/m);
    const screen = await term.screen();
    expect(screen).toContain('shell-before-browse');
    expect(screen).toMatch(/^error: the API refused the token \(401\)/m);
    expect(screen).not.toContain('Notifications');
    expect(await term.modes()).toBe('cursor=1 alternate=0 keypad=0');
  }, 30_000);
});

describe('notifications browse colors', () => {
  for (const [what, extra, colored] of [
    ['at a terminal', {}, true],
    ['with NO_COLOR', { NO_COLOR: '1' }, false],
  ] as const) {
    it(`${colored ? 'colors' : 'does not color'} the screen ${what}, and Ctrl-C leaves`, async () => {
      const session = await loggedIn();
      const path = `${await binOnPath()}:${process.env.PATH}`;
      const term = await terminal(80, { ...session.env, PATH: path, ...extra }, 24);
      await term.type('-l', 'clinadmin notifications browse; echo browse-exit=$?');
      await term.type('Enter');
      await expect.poll(term.screen, { timeout: 10_000 }).toContain('Notifications  3 of 3');
      const styled = await term.styled();
      // tmux writes each attribute it holds as an SGR sequence: reverse video (7) marks the selected row.
      if (colored) expect(styled).toMatch(/\u001b\[(?:[0-9]+;)*7m(?:\u001b\[[0-9;]*m)*>/);
      else expect(styled).not.toMatch(/\u001b\[[0-9;]*m/);
      await term.type('C-c');
      await expect.poll(term.screen, { timeout: 10_000 }).toMatch(/^browse-exit=0$/m);
      expect(await term.modes()).toBe('cursor=1 alternate=0 keypad=0');
    }, 30_000);
  }
});
