// Covers: src/output/fit.ts src/output/text.ts src/commands/notifications/watch-run.ts src/output/browse-view.ts
import { describe, expect, it } from 'vitest';
import { binOnPath, E2E_TOKEN, loggedIn } from '../helpers/logged-in.js';
import { terminal } from '../helpers/terminal.js';

// Every line fits the terminal, wide characters included: CJK letters and emoji take two columns each,
// and a line one column too wide wraps (watch's closing parenthesis on a row of its own). The terminal
// itself (tmux) says which rows it wrapped.

const WIDE = '血红蛋白 🧪 检测结果 尿液收集杯库存不足 💉 请尽快补货 ヘモグロビン 검사 결과';

for (const columns of [80, 100]) {
  describe(`at a terminal of ${columns} columns, with wide characters`, () => {
    const open = async (rows = 40) => {
      const session = await loggedIn();
      const path = `${await binOnPath()}:${process.env.PATH}`;
      const term = await terminal(columns, { ...session.env, PATH: path }, rows);
      const create = async (name: string) => {
        const r = await fetch(`${session.server.url}/diagnostic-measures`, {
          method: 'POST',
          headers: { authorization: `Bearer ${E2E_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ test: 'tst_wide', name }),
        });
        expect(r.ok).toBe(true);
      };
      return { ...session, term, create };
    };

    it('watch prints each arrival on one line, the title cut and the id whole; its status lines fit', async () => {
      const { term, create, server } = await open();
      await term.type('-l', 'clinadmin notifications watch --interval 0.3');
      await term.type('Enter');
      await expect.poll(term.screen, { timeout: 10_000 }).toContain('watching for notifications');
      await create(`Wide ${WIDE}`);
      await create('A plain name long enough to reach the edge of a terminal of a hundred columns');
      // The time without its year when the line is too wide for it (local time, `11-27 04:17`).
      const arrival = /^(?:\d{4}-)?\d\d-\d\d \d\d:\d\d {2}\S+ {2}\S+ {2}Measure c.*\((ntf_[\w-]+)\)$/gm;
      await expect.poll(async () => [...(await term.screen()).matchAll(arrival)].length, { timeout: 10_000 }).toBe(2);
      const screen = await term.screen();
      // Each id whole, as the server has it.
      const ids = [...screen.matchAll(arrival)].map((m) => m[1]);
      const listed = (await fetch(`${server.url}/notifications`, {
        headers: { authorization: `Bearer ${E2E_TOKEN}` },
      }).then((r) => r.json())) as { id: string }[];
      for (const id of ids) expect(listed.map((n) => n.id)).toContain(id);
      expect(await term.wrapped(), screen).toBe(0);
      server.proc.kill('SIGTERM');
      await server.proc.catch(() => undefined);
      await expect.poll(term.screen, { timeout: 15_000 }).toContain('lost the server');
      expect(await term.wrapped(), await term.screen()).toBe(0);
      await term.type('C-c');
    }, 60_000);

    it('list and browse (list, detail and status line) fit', async () => {
      const { term, create } = await open(24);
      await create(`Wide ${WIDE}`);
      await create(`${WIDE}${WIDE}`);
      const lines = await term.run('clinadmin notifications list');
      // A header and one line per notification: the seed's three and the two made here.
      expect(lines[0]).toMatch(/^ID\s+TIME/);
      expect(lines.filter((l) => l.startsWith('ntf_'))).toHaveLength(5);
      expect(await term.wrapped()).toBe(0);
      await term.clear();
      await term.type('-l', 'clinadmin notifications browse');
      await term.type('Enter');
      await expect.poll(term.screen, { timeout: 10_000 }).toContain('Notifications  5 of 5');
      await term.type('/');
      await term.type('-l', 'Wide');
      await expect.poll(term.screen, { timeout: 10_000 }).toContain('Notifications  2 of 5');
      expect(await term.wrapped(), await term.screen()).toBe(0);
      await term.type('Enter');
      await term.type('Enter');
      await expect.poll(term.screen, { timeout: 10_000 }).toContain('opened ntf_');
      expect(await term.wrapped(), await term.screen()).toBe(0);
      await term.type('q');
    }, 60_000);
  });
}
