// Covers: src/commands/notifications/filters.ts src/commands/notifications/list-run.ts
// Covers: src/commands/notifications/show-run.ts src/commands/notifications/marks.ts src/core/notifications.ts
// Covers: src/commands/notifications/list.ts src/commands/notifications/show.ts
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

// The questions support asks of notifications: who has seen it, is "none" a typo, a look that marks
// nothing. The seed (server/service/seed.ts) has three warehouse notifications; ntf_queue_2 seen by acc_support.

async function setup() {
  const server = await testServer({ seed: true });
  const dir = await tempDir();
  const env = cliEnv(server.url, dir);
  const cli = (argv: string[], o: Parameters<typeof runCli>[1] = {}) =>
    runCli(argv, { ...o, env: { ...env, ...o.env }, cwd: dir });
  const seenBy = async () =>
    Object.fromEntries(
      ((await server.call('GET', '/notifications')).body as { id: string; seenBy: string[] }[]).map((n) => [
        n.id,
        n.seenBy,
      ]),
    );
  return { server, cli, seenBy };
}

describe('no empty answer from a typo', () => {
  it('a type, code or account none has is said on stderr with the nearest ones; exit 0, matching exact', async () => {
    const { cli } = await setup();
    const typo = await cli(['notifications', 'list', '--type', 'wharehouse'], { stdoutTTY: true });
    expect(typo.code).toBe(0);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toBe('no notifications of type "wharehouse"; types here: warehouse\n');
    // Matching stays exact: another case is another type.
    const cased = await cli(['notifications', 'list', '--type', 'Warehouse', '-o', 'json']);
    expect([cased.code, JSON.parse(cased.stdout)]).toEqual([0, []]);
    expect(cased.stderr).toBe('no notifications of type "Warehouse"; types here: warehouse\n');
    const code = await cli(['notifications', 'list', '--code', 'stock-lo', '-o', 'json']);
    expect(code.stderr).toBe('no notifications with code "stock-lo"; codes here: stock-low, new-queue-item\n');
    const account = await cli(['notifications', 'list', '--seen-by', 'acc_suport', '-o', 'json']);
    expect(account.stderr).toBe('no notifications seen by "acc_suport"; accounts that have seen one: acc_support\n');
    const honest = await cli(['notifications', 'list', '--type', 'warehouse', '--code', 'nope'], { stdoutTTY: true });
    expect(honest.stderr).toBe('no notifications with code "nope"; codes here: stock-low, new-queue-item\n');
    // Values that are there but match nothing together: an honest empty list.
    const none = await cli(['notifications', 'list', '--code', 'stock-low', '--seen-by', 'acc_support'], {
      stdoutTTY: true,
    });
    expect(none.stderr).toBe('no notifications\n');
  });
});

describe('who has seen it', () => {
  it('--seen-by and --unseen-by filter by any account; --fields seenByList and seenBy show the accounts', async () => {
    const { cli } = await setup();
    const seen = await cli(['notifications', 'list', '--seen-by', 'acc_support', '-o', 'json']);
    expect(JSON.parse(seen.stdout).map((n: { id: string }) => n.id)).toEqual(['ntf_queue_2']);
    const unseen = await cli(['notifications', 'list', '--unseen-by', 'acc_support', '-o', 'json']);
    expect(JSON.parse(unseen.stdout).map((n: { id: string }) => n.id)).toEqual(['ntf_stock_low', 'ntf_queue_1']);
    for (const field of ['seenByList', 'seenBy']) {
      const t = await cli(['notifications', 'list', '--fields', `id,title,${field}`], { stdoutTTY: true });
      const lines = t.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^ID\s+TITLE\s+SEEN BY$/);
      expect(lines.find((l) => l.startsWith('ntf_queue_2'))).toMatch(/reagent pack\s+acc_support$/);
    }
    const csv = await cli(['notifications', 'list', '--fields', 'id,seenByList', '-o', 'csv']);
    expect(csv.stdout).toContain('ntf_queue_2,acc_support\r\n');
    // By default CSV keeps the data: seenBy as stored, not one account's status.
    const data = (await cli(['notifications', 'list', '-o', 'csv'])).stdout.split('\r\n');
    expect(data[0]).toBe('id,createdAt,type,code,title,seenBy');
    expect(data.find((l) => l.startsWith('ntf_queue_2,'))).toMatch(/,"\[""acc_support""\]"$/);
    const both = await cli(['notifications', 'list', '--unseen', '--unseen-by', 'acc_x'], {
      env: { CLINADMIN_ACCOUNT: 'acc_support' },
    });
    expect(both.code).toBe(2);
  });
});

describe('look without marking', () => {
  it('show --peek reads it from the list and marks nothing; show marks it seen and names who saw it', async () => {
    const { cli, seenBy } = await setup();
    const before = await seenBy();
    const peek = await cli(['notifications', 'show', 'ntf_queue_2', '--peek'], { stdoutTTY: true });
    expect(peek.code).toBe(0);
    expect(peek.stdout).toContain('New queue item: reagent pack');
    expect(peek.stdout).toMatch(/^seen by acc_support$/m);
    expect(await seenBy()).toEqual(before);
    const missing = await cli(['notifications', 'show', 'ntf_nope', '--peek']);
    expect(missing.code).toBe(3);
    const shown = await cli(['notifications', 'show', 'ntf_queue_2'], { stdoutTTY: true });
    expect(shown.stdout).toMatch(/^seen by acc_support, acc_tester$/m);
    expect((await seenBy()).ntf_queue_2).toEqual(['acc_support', 'acc_tester']);
  });

  it('the help of every read says whether it marks on serve, and that the real rule is not documented', async () => {
    const { cli } = await setup();
    for (const command of ['list', 'show', 'watch', 'browse']) {
      const help = (await cli(['notifications', command, '--help'])).stdout.replace(/\s+/g, ' ');
      expect(help, command).toContain("The real service's rule is not documented.");
      expect(help, command).toMatch(/clinadmin serve/);
    }
  });
});

describe('times as people write them', () => {
  it('--since and --until take durations, today, yesterday and ISO dates; anything else is refused', async () => {
    const { cli } = await setup();
    const ids = async (...flags: string[]) => {
      const r = await cli(['notifications', 'list', ...flags, '-o', 'json']);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout).map((n: { id: string }) => n.id);
    };
    const all = await ids();
    expect(await ids('--since', '3650d')).toEqual(all);
    expect(await ids('--until', '90s')).toEqual(all);
    expect(await ids('--since', '90s')).toEqual([]);
    // Ends the wrong way round hold nothing: refused, not an empty list and 0 (issue 64).
    expect((await cli(['notifications', 'list', '--since', 'today', '--until', 'yesterday'])).code).toBe(2);
    expect(await ids('--since', '2000-01-01', '--until', '2000-01-01T10:00')).toEqual([]);
    expect(await ids('--since', '2000-01-01T10:00Z')).toEqual(all);
    for (const bad of ['2026-02-30', 'tomorrowish', '2026-11-20T25:00', '15 m']) {
      const r = await cli(['notifications', 'list', '--until', bad]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        'invalid option --until: is not a duration (90s, 15m, 1h, 2d), a time of day (08:00), today, yesterday',
      );
    }
  });
});
