// Covers: src/commands/notifications/list-run.ts src/commands/notifications/show-run.ts
// Covers: src/commands/notifications/watch-run.ts src/output/fit.ts
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
import { binOnPath } from '../helpers/logged-in.js';
import { terminal } from '../helpers/terminal.js';
import { tempDir } from '../helpers/tmp.js';

// Issue 50's support engineer, at a real terminal (tmux): "customers say they did not get the warehouse
// notifications". A typo is said as a typo, the accounts that saw each warehouse notification are listed,
// a peek marks nothing (checked through another account's list), and the lines keep the title.

const SUPPORT = 'support-token-5b1e';
const OTHER = 'other-token-93ac';
// Titles as serve makes them from real measure names: longer than the room an 80-column line has.
const NAMES = ['Hemoglobin A1c/Hemoglobin.total in Blood by HPLC', 'Potassium [Moles/volume] in Serum or Plasma'];

async function open(columns: number, rows: number) {
  const dir = await tempDir();
  const server = await serveProcess([
    '--seed',
    '--data',
    join(dir, 'data.json'),
    '--token',
    `${SUPPORT}:acc_support`,
    '--token',
    `${OTHER}:acc_other`,
  ]);
  const env = { CLINADMIN_CONFIG_DIR: join(dir, 'config') };
  const login = await clinadmin(['login', '--base-url', server.url, '--token-stdin', '--account', 'acc_support'], {
    env,
    input: SUPPORT,
  });
  expect(login.exitCode).toBe(0);
  const create = async (name: string) => {
    const r = await fetch(`${server.url}/diagnostic-measures`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OTHER}`, 'content-type': 'application/json' },
      body: JSON.stringify({ test: 'tst_support', name }),
    });
    expect(r.ok).toBe(true);
  };
  const term = await terminal(columns, { ...env, PATH: `${await binOnPath()}:${process.env.PATH}` }, rows);
  return { server, term, create };
}

/** The notification lines of a list (those starting with an id), trimmed. */
const rowsOf = (lines: string[]) => lines.filter((l) => l.startsWith('ntf_')).map((l) => l.trimEnd());

describe('the support scenario at 80 × 24', () => {
  it('a typo, who saw each warehouse notification, a peek that marks nothing, lines that keep the title', async () => {
    const { server, term, create } = await open(80, 24);
    try {
      for (const name of NAMES) await create(name);
      // A typo is not "none were sent": said with the types there are; exit 0 as for any empty list.
      const typo = await term.run('clinadmin notifications list --type wharehouse');
      expect(typo).toEqual(['no notifications of type "wharehouse"; types here: warehouse, diagnostic-measure']);
      expect(await term.status()).toBe(0);
      // Who has seen each warehouse notification: the accounts, not one's own status.
      const who = rowsOf(await term.run('clinadmin notifications list --type warehouse --fields id,title,seenBy'));
      expect(who).toEqual([
        expect.stringMatching(/^ntf_stock_low\s+Stock low: urine cups$/),
        expect.stringMatching(/^ntf_queue_2\s+New queue item: reagent pack\s+acc_support$/),
        expect.stringMatching(/^ntf_queue_1\s+New queue item: collection tubes$/),
      ]);
      // A peek reads it, names who saw it, and marks nothing: another account's list says so.
      const peek = await term.run('clinadmin notifications show ntf_queue_1 --peek');
      expect(peek[0]).toBe('New queue item: collection tubes');
      expect(peek).toContain('seen by nobody yet');
      const other = `CLINADMIN_TOKEN=${OTHER} clinadmin notifications list --type warehouse --fields id,seenBy`;
      expect(rowsOf(await term.run(other))).toContain('ntf_queue_1');
      // Reading it (no --peek) marks it seen by the support account, as serve's rule is.
      const read = await term.run('clinadmin notifications show ntf_queue_1');
      expect(read).toContain('seen by acc_support');
      expect(rowsOf(await term.run(other))).toContainEqual(expect.stringMatching(/^ntf_queue_1\s+acc_support$/));
      await term.clear();
      // The lines keep the title: 30 characters of it at 80, the time shortened, nothing wrapped.
      const list = await term.run('clinadmin notifications list');
      expect(list[0]).toMatch(/^ID\s+TIME\s+TYPE\s+CODE\s+TITLE\s+SEEN$/);
      expect(await term.wrapped()).toBe(0);
      const made = rowsOf(list).filter((l) => l.includes('Measure created'));
      expect(made).toHaveLength(2);
      for (const [i, line] of made.entries()) {
        expect(line).toMatch(/^ntf_\S+\s+\d\d-\d\d \d\d:\d\d\s/);
        expect(line).toContain(`Measure created: ${NAMES[1 - i]}`.slice(0, 30));
      }
      // 30 characters of a title of its own, and the ellipsis (issue 64).
      expect(rowsOf(list)).toContainEqual(expect.stringContaining('New queue item: collection tub…'));
      // -o wide keeps SEEN BY at 80, leaves out what does not fit, and says so.
      const wide = await term.run('clinadmin notifications list -o wide');
      expect(wide[0]).toMatch(/^ID\s+TIME\s.*\sTITLE\s+SEEN BY$/);
      const missing = ['TYPE', 'CODE', 'BODY'].filter((h) => !wide[0].includes(h));
      expect(wide.at(-1)).toBe(`note: ${missing.length} columns left out to fit 80: ${missing.join(', ')}`);
      expect(await term.wrapped()).toBe(0);
      // watch at 80: an arrival keeps 30 columns of its title and its whole id.
      await term.clear();
      await term.type('-l', 'clinadmin notifications watch --interval 0.3');
      await term.type('Enter');
      await expect.poll(term.screen, { timeout: 10_000 }).toContain('watching for notifications');
      await create('Glucose [Mass/volume] in Capillary blood by Glucometer');
      const arrival = /^\d\d-\d\d \d\d:\d\d {2}\S+ {2}\S+ {2}(Measure created: .*) {2}\(ntf_[\w-]+\)$/m;
      await expect.poll(term.screen, { timeout: 10_000 }).toMatch(arrival);
      expect(arrival.exec(await term.screen())![1]).toBe('Measure created: Glucose [Mass…');
      expect(await term.wrapped()).toBe(0);
      await term.type('C-c');
    } finally {
      server.proc.kill('SIGTERM');
      await server.proc.catch(() => undefined);
    }
  }, 120_000);
});

describe('the title first at 100 × 30', () => {
  it('list, -o wide and watch give the title its room', async () => {
    const { server, term, create } = await open(100, 30);
    try {
      for (const name of NAMES) await create(name);
      const list = await term.run('clinadmin notifications list');
      expect(await term.wrapped()).toBe(0);
      for (const line of rowsOf(list)) expect(line.length).toBeLessThanOrEqual(100);
      expect(rowsOf(list)).toContainEqual(expect.stringMatching(/New queue item: collection tubes\s+new$/));
      const made = rowsOf(list).filter((l) => l.includes('Measure created'));
      // More than 30 columns of title at 100, the type and code cut to make room.
      for (const line of made) expect(line).toMatch(/ {2}Measure created: \S.{20,}… {2}new$/);
      const wide = await term.run('clinadmin notifications list -o wide');
      expect(await term.wrapped()).toBe(0);
      // What -o wide leaves out, if anything, it says.
      const header = wide[0];
      const left = wide.find((l) => l.startsWith('note: '));
      for (const col of ['SEEN BY', 'BODY']) expect(header.includes(col) || Boolean(left?.includes(col))).toBe(true);
      await term.clear();
      await term.type('-l', 'clinadmin notifications watch --interval 0.3');
      await term.type('Enter');
      await expect.poll(term.screen, { timeout: 10_000 }).toContain('watching for notifications');
      await create('Glucose [Mass/volume] in Capillary blood by Glucometer');
      await expect.poll(term.screen, { timeout: 10_000 }).toMatch(/Measure created: Glucose \[Mass\/volume\] in Cap/);
      expect(await term.wrapped()).toBe(0);
      await term.type('C-c');
    } finally {
      server.proc.kill('SIGTERM');
      await server.proc.catch(() => undefined);
    }
  }, 120_000);
});
