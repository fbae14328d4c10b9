// Covers: src/output/terminal.ts src/output/text.ts src/output/picture.ts src/output/describe.ts
// Covers: src/commands/sandbox/sandbox-run.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOSTILE_TEXT, hostileApi, hostileRecords, hostileServer, raw } from '../helpers/hostile.js';
import { runShipped } from '../helpers/run-shipped.js';
import { tempDir } from '../helpers/tmp.js';

// Issue 38, findings 3, 4 and 8: every text a server or a file sends reaches a terminal escaped, in
// every view that shows a measure, a coverage or a notification, and in errors and -v traces. The built CLI
// runs in process (runShipped; the single executable in test/system/binary.test.ts): what it writes is what a
// terminal would get. test/e2e/hostile-text.test.ts holds what needs a process: watch until Ctrl-C, and the
// bytes as written, not as decoded.

const TOKEN = 'tok-hostile-text-1234';

async function api() {
  const server = await hostileServer(hostileApi());
  return {
    server,
    run: (args: string[], env: Record<string, string> = {}) =>
      runShipped(args, { env: { CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: TOKEN, COLUMNS: '100', ...env } }),
  };
}

const VIEWS: string[][] = [
  ['measures', 'list'],
  ['measures', 'list', '-o', 'table'],
  ['measures', 'list', '-o', 'wide'],
  ['measures', 'list', '-o', 'ndjson'],
  ['measures', 'list', '-o', 'table', '--fields', 'id,name,unit,description,choices'],
  ['measures', 'show', 'msr_h'],
  ['measures', 'show', 'msr_h', '-o', 'table'],
  ['measures', 'evaluate', 'msr_h', '--value', '3', '-o', 'table'],
  ['measures', 'evaluate', 'msr_h', '--value', '3', '-o', 'json'],
  ['coverages', 'list', '-o', 'table'],
  ['coverages', 'list', '-o', 'wide'],
  ['coverages', 'show', 'cov_h', '-o', 'table'],
  ['notifications', 'list', '-o', 'table'],
  ['notifications', 'list'],
  ['notifications', 'show', 'ntf_h'],
  ['notifications', 'show', 'ntf_h', '-o', 'json'],
  // Errors: a 404 and a 422 whose problem details are hostile, with and without -v's traces.
  ['measures', 'show', 'missing'],
  ['measures', 'show', 'missing', '-v'],
  ['coverages', 'update', 'cov_h', '--name', 'x', '-v'],
  ['measures', 'delete', 'msr_h', '--yes', '-v'],
];

describe('hostile text from a server reaches no terminal raw (issue 38)', () => {
  it.for(VIEWS.map((args) => ({ args, line: args.join(' ') })))('$line', async ({ args }) => {
    const { run, server } = await api();
    const r = await run(args);
    expect(server.seen.length).toBeGreaterThan(0);
    // Something was shown: the record, or the refusal.
    expect(`${r.stdout}${r.stderr}`).toMatch(/msr_h|cov_h|ntf_h|Refused|detail|mmol|low/);
    expect(raw(r.stdout)).toBeUndefined();
    expect(raw(r.stderr)).toBeUndefined();
    expect(`${r.stdout}${r.stderr}`).not.toContain(TOKEN);
  });

  it('lets colors through at a terminal, and only our own', async () => {
    const { run } = await api();
    for (const args of [
      ['measures', 'show', 'msr_h', '-o', 'table'],
      ['coverages', 'show', 'cov_h', '-o', 'table'],
      ['notifications', 'show', 'ntf_h', '-o', 'table'],
    ]) {
      const r = await run(args, { NO_COLOR: '', FORCE_COLOR: '1' });
      expect(r.code).toBe(0);
      // The theme's styles (bold, dim, inverse, colors, their ends) are there; nothing else is.
      expect(r.stdout).toMatch(/\u001b\[1m/);
      expect(raw(r.stdout.replace(/\u001b\[(?:1|2|7|22|27|31|32|33|36|39)m/g, ''))).toBeUndefined();
      // The attacker's own red is shown, not obeyed.
      expect(r.stdout).toContain('\\u001b[31m');
    }
  });

  it("escapes a server's words in sandbox summary lines, even the theme's own colors (issue 59)", async () => {
    // A server that answers each sandbox verb with text posing as our colors: `all passed` in inverse green.
    const fake = '\u001b[7m\u001b[32mall passed\u001b[39m\u001b[27m';
    const server = await hostileServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      const counts = { measures: 1, coverages: 1, notifications: 1 };
      const body = path.startsWith('/_admin/snapshots/')
        ? { name: fake, createdAt: 1, ...counts }
        : path === '/_admin/reset'
          ? { snapshot: fake, ...counts }
          : path === '/insurance-coverages'
            ? [{ id: fake, contract: 'c', name: 'n', type: 'deduction', amount: 1, [fake]: 1 }]
            : [];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    const env = { CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: TOKEN, NO_COLOR: '', FORCE_COLOR: '1' };
    const out = join(await tempDir(), 'captured.json');
    for (const args of [
      ['sandbox', 'snapshot', 'x', '-o', 'json'],
      ['sandbox', 'reset', 'x', '-o', 'json'],
      ['sandbox', 'capture', '--out', out],
    ]) {
      const r = await runShipped(args, { env });
      expect(r.stderr, args.join(' ')).toContain('\\u001b[7m\\u001b[32mall passed');
      expect(raw(r.stderr), args.join(' ')).toBeUndefined();
    }
    await server.close();
  });

  it('shows the unit in the range picture, evaluate and the field names escaped (findings 3, 4)', async () => {
    const { run } = await api();
    const show = await run(['measures', 'show', 'msr_h', '-o', 'table']);
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/Range picture \(mmol\/LA\\u0000\\u0007\\u0008\\u000d\\u001b\[2J\\u001b\]52;c;/);
    expect(show.stdout).toContain('Other fields');
    expect(show.stdout).toMatch(/^field.*\\u001b\]52;c;.*:/m);
    expect(show.stdout).toMatch(/^\\u001b\]52;c;QQ==\\u0007key:/m);
    const evaluated = await run(['measures', 'evaluate', 'msr_h', '--value', '3', '-o', 'table']);
    expect(evaluated.stdout).toMatch(/^low \(3 mmol\/LA\\u0000/);
    expect(evaluated.stdout).toMatch(/reference range: 3\.5–5\.1 mmol\/LA\\u0000/);
  });

  it('shows a name holding zero-width and bidi characters escaped, as \\u200b, in every view (finding 8)', async () => {
    const { run } = await api();
    for (const args of [
      ['measures', 'list', '-o', 'table'],
      ['measures', 'show', 'msr_h', '-o', 'table'],
      ['measures', 'list', '-o', 'json'],
    ]) {
      // Wide enough that no cell is cut.
      const r = await run(args, { COLUMNS: '4000' });
      expect(r.stdout).toContain('\\u200bZ\\u2060W\\u00adS\\ufeff');
      expect(r.stdout).toContain('\\u202eevil\\u202c\\u2066iso\\u2069');
    }
    // JSON stays JSON: the escapes read back as the very characters the server sent.
    const json = await run(['measures', 'list', '-o', 'json']);
    expect(JSON.parse(json.stdout)).toEqual([hostileRecords().measure]);
  });

  it('evaluates from a file with a hostile unit, no server involved (finding 3)', async () => {
    const dir = await tempDir();
    const file = join(dir, 'catalog.json');
    const { measure } = hostileRecords();
    const rec = {
      test: 'tst_k',
      name: 'Potassium',
      type: 'numeric',
      unit: measure.unit,
      siunit: measure.siunit,
      description: measure.description,
      referenceRanges: [{ min: 3.5, max: 5.1, sex: 'all' }],
      panicRanges: [{ min: 2.5, max: 6.5, sex: 'all' }],
    };
    await writeFile(file, JSON.stringify([rec]));
    for (const output of ['table', 'json']) {
      const r = await runShipped(
        ['measures', 'evaluate', '--file', file, '--name', 'Potassium', '--value', '7', '-o', output],
        { env: { COLUMNS: '100' } },
      );
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      if (output === 'table') expect(r.stdout).toContain('\\u001b]52;c;');
      expect(raw(r.stdout)).toBeUndefined();
    }
  });

  it('has a hostile text that holds every kind the rule names', () => {
    for (const c of ['\u0000', '\u001b]52;', '\u001b]8;;', '\u001b[', '\u009b', '\u202e', '\u2066', '\u200b']) {
      expect(HOSTILE_TEXT).toContain(c);
    }
  });
});
