// Covers: src/commands/resource/ src/commands/measures/create.ts src/commands/measures/update.ts
// Covers: src/commands/coverages/ src/commands/notifications/list-run.ts src/commands/api.ts src/commands/api-run.ts
// Covers: src/core/range-verbs.ts src/output/present.ts src/errors.ts src/cli.ts src/commands/measures/index.ts
// Covers: src/commands/notifications/index.ts
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, type TestServer, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

async function setup(seed = true) {
  const server = await testServer({ seed });
  const dir = await tempDir();
  const env = cliEnv(server.url, dir);
  const cli = (argv: string[], o: Parameters<typeof runCli>[1] = {}) =>
    runCli(argv, { ...o, env: { ...env, ...o.env }, cwd: dir });
  return { server, dir, env, cli };
}

const measures = async (s: TestServer) =>
  (await s.call('GET', '/diagnostic-measures')).body as Record<string, unknown>[];

describe('measures commands', () => {
  it('lists as JSON when piped, exactly what the API returned', async () => {
    const { server, cli } = await setup();
    const r = await cli(['measures', 'list']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(await measures(server));
    expect(r.stderr).toBe('');
  });

  it('lists as a table at a terminal, with ranges in the lab form', async () => {
    const { cli } = await setup();
    const r = await cli(['measures', 'list'], { stdoutTTY: true });
    expect(r.code).toBe(0);
    // One line per record under a header row, no boxes; the first range and how many more in one cell.
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+TEST\s+NAME\s+TYPE\s+UNIT\s+REFERENCE RANGES$/);
    expect(lines).toHaveLength(7);
    expect(lines.find((l) => l.startsWith('msr_hgb'))).toMatch(
      /^msr_hgb\s+tst_cbc\s+Hemoglobin\s+numeric\s+g\/dL\s+13\.5–17\.5 g\/dL \+2$/,
    );
    expect(r.stdout).not.toMatch(/[│┌└─]/);
    expect(r.stdout).not.toMatch(/\x1b\[/);
  });

  it('colors tables only when allowed: FORCE_COLOR on, NO_COLOR and --no-color off', async () => {
    const { cli } = await setup();
    const forced = await cli(['measures', 'list', '-o', 'table'], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(forced.stdout).toMatch(/\x1b\[1mID/);
    const flag = await cli(['measures', 'list', '-o', 'table', '--no-color'], {
      env: { NO_COLOR: undefined, FORCE_COLOR: '1' },
    });
    expect(flag.stdout).not.toMatch(/\x1b\[/);
    const noColor = await cli(['measures', 'list'], { stdoutTTY: true, env: { NO_COLOR: '1' } });
    expect(noColor.stdout).not.toMatch(/\x1b\[/);
    const tty = await cli(['notifications', 'list'], {
      stdoutTTY: true,
      env: { NO_COLOR: undefined, CLINADMIN_ACCOUNT: 'acc_support' },
    });
    expect(tty.stdout).toMatch(/\x1b\[32mseen/);
  });

  it('picks fields for JSON and CSV, and filters with --query', async () => {
    const { cli } = await setup();
    const json = await cli(['measures', 'list', '-o', 'json', '--fields', 'id,name']);
    expect(JSON.parse(json.stdout)[0]).toEqual({ id: 'msr_hgb', name: 'Hemoglobin' });
    const csv = await cli(['measures', 'list', '-o', 'csv', '--fields', 'id,name']);
    expect(csv.stdout.split('\r\n').slice(0, 4)).toEqual([
      'id,name',
      'msr_hgb,Hemoglobin',
      'msr_wbc,White blood cells',
      'msr_k,Potassium',
    ]);
    const q = await cli(['measures', 'list', '--query', "[?test=='tst_bmp'].name"]);
    expect(JSON.parse(q.stdout)).toEqual(['Potassium', 'Glucose, fasting']);
    const bad = await cli(['measures', 'list', '--query', '[?']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/invalid --query expression/);
  });

  it('prints NDJSON and YAML', async () => {
    const { cli } = await setup();
    const nd = await cli(['coverages', 'list', '-o', 'ndjson']);
    const lines = nd.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0]).id).toBe('cov_acme_cbc');
    const yaml = await cli(['coverages', 'show', 'cov_acme_cbc', '-o', 'yaml']);
    expect(yaml.stdout).toContain('id: cov_acme_cbc\n');
    expect(yaml.stdout).toContain('name: CBC copay\n');
    expect(yaml.stdout).toContain('amount: 15\n');
  });

  it('creates from flags, with ranges in the short form', async () => {
    const { server, cli } = await setup(false);
    const r = await cli([
      'measures',
      'create',
      '--test',
      'tst_bmp',
      '--name',
      'Potassium',
      '--type',
      'numeric',
      '--unit',
      'mEq/L',
      '--reference-range',
      '3.5-5.1 sex=male age=18-65',
      '--reference-range',
      '3.4..5.0',
      '--panic-range',
      '<2.5',
      '--sets',
      'a,b',
      '--sets',
      'c',
      '--hl7-code',
      '2823-3',
      '--breakdown-min',
      '1',
      '--breakdown-max',
      '2',
      '--account',
      'acc_x',
      '--facility',
      'fac_y',
      '--section',
      'Chemistry',
    ]);
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created).toMatchObject({
      test: 'tst_bmp',
      name: 'Potassium',
      type: 'numeric',
      unit: 'mEq/L',
      sets: ['a', 'b', 'c'],
      hl7IdentifierCod: '2823-3',
      numericBreakdownMin: 1,
      numericBreakdownMax: 2,
      account: 'acc_x',
      facility: 'fac_y',
      section: 'Chemistry',
      referenceRanges: [
        // age=18-65 is every age from 18 y until the 66th birthday: [18, 66) in exact years.
        { min: 3.5, max: 5.1, sex: 'male', ageMin: 18, ageMax: 66 },
        { min: 3.4, max: 5, sex: 'all' },
      ],
      // Critical below 2.5: FHIR's critical range with its low limit.
      panicRanges: [{ min: 2.5, sex: 'all' }],
    });
    expect(await measures(server)).toEqual([created]);
  });

  it('warns of what lint finds on create and update, and sends nothing with --strict', async () => {
    const { server, cli } = await setup(false);
    const args = ['measures', 'create', '--test', 'tst_l', '--name', 'Odd', '--type', 'numeric'];
    // Critical above 4: results from 4 to 5.1, inside the reference range, would be critical.
    const ranges = ['--reference-range', '3.5-5.1', '--panic-range', '>4'];
    const strict = await cli([...args, ...ranges, '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(/^error: the measure has 2 warnings, errors with --strict; nothing was sent\n/);
    expect(strict.stderr).toContain('  - unit: a numeric measure has no unit');
    expect(await measures(server)).toEqual([]);
    const warned = await cli([...args, ...ranges]);
    expect(warned.code).toBe(0);
    expect(warned.stderr).toMatch(/^warning: unit: a numeric measure has no unit\nwarning: panicRanges\[0\]\.max: /);
    const id = JSON.parse(warned.stdout).id;
    const gap = await cli([
      'measures',
      'update',
      id,
      '--unit',
      'mmol/L',
      '--replace-reference-ranges',
      '1-2 age=0-10',
      '--replace-reference-ranges',
      '1-2 age=12-120',
      '--yes',
      '--strict',
    ]);
    expect(gap.code).toBe(2);
    expect(gap.stderr).toContain(
      'age 11 y is not covered for sex all: the bands before it end at 10 y, and it starts at 12 y',
    );
  });

  it('says a measure already exists, naming it, when its (test, name) is taken (exit 1)', async () => {
    const { cli } = await setup();
    const r = await cli(['measures', 'create', '--test', 'tst_bmp', '--name', 'Potassium']);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe(
      'error: the API refused POST /diagnostic-measures (409): ' +
        'a measure with test tst_bmp and name Potassium already exists as msr_k',
    );
  });

  it('creates from --file and --data, flags overriding the body', async () => {
    const { server, dir, cli } = await setup(false);
    await writeFile(join(dir, 'm.json'), JSON.stringify({ test: 'tst_1', name: 'From file', unit: 'g/L' }));
    const fromFile = await cli(['measures', 'create', '--file', 'm.json', '--name', 'Overridden']);
    expect(JSON.parse(fromFile.stdout)).toMatchObject({ test: 'tst_1', name: 'Overridden', unit: 'g/L' });
    const fromData = await cli(['measures', 'create', '--data', '{"test":"tst_2","name":"From data"}']);
    expect(JSON.parse(fromData.stdout).name).toBe('From data');
    const fromStdin = await cli(['measures', 'create', '--file', '-'], {
      stdin: '{"test":"tst_3","name":"From stdin"}',
    });
    expect(JSON.parse(fromStdin.stdout).name).toBe('From stdin');
    expect((await measures(server)).map((m) => m.name)).toEqual(['Overridden', 'From data', 'From stdin']);
  });

  it('refuses invalid input locally, naming the field, and sends nothing', async () => {
    const { server, dir, cli } = await setup(false);
    const missing = await cli(['measures', 'create', '--name', 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing required --test; nothing was sent');
    const reversed = await cli(['measures', 'create', '--test', 't', '--name', 'x', '--reference-range', '5-3']);
    expect(reversed.code).toBe(2);
    expect(reversed.stderr).toContain('referenceRanges[0].max: min (5) must not be greater than max (3)');
    const enumBad = await cli(['measures', 'create', '--test', 't', '--name', 'x', '--type', 'numerik']);
    expect(enumBad.code).toBe(2);
    expect(enumBad.stderr).toMatch(/--type.*numerik.*not one of the allowed choices|Allowed choices/i);
    const number = await cli(['measures', 'create', '--test', 't', '--name', 'x', '--breakdown-min', 'ten']);
    expect(number.stderr).toContain(
      'invalid option --breakdown-min: must be a number: an optional minus sign, digits and at most one decimal ' +
        'point, as in -3.5 (got "ten")',
    );
    await writeFile(join(dir, 'broken.json'), '{\n  "test": "t",\n  "name": "x",\n}\n');
    const syntax = await cli(['measures', 'create', '--file', 'broken.json']);
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toMatch(/broken\.json is not valid JSON: line 4, column 1/);
    const unknown = await cli(['measures', 'create', '--data', '{"test":"t","name":"x","colour":"red"}']);
    expect(unknown.stderr).toContain('colour: unknown field colour');
    expect(await measures(server)).toEqual([]);
  });

  it('updates fields and refuses create-only flags with a sentence', async () => {
    const { server, cli } = await setup();
    const r = await cli([
      'measures',
      'update',
      'msr_k',
      '--unit',
      'mmol/L',
      '--description',
      'serum',
      '--section',
      'Renal',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'msr_k', unit: 'mmol/L', description: 'serum', section: 'Renal' });
    const createOnly = await cli(['measures', 'update', 'msr_k', '--test', 'other']);
    expect(createOnly.code).toBe(2);
    expect(createOnly.stderr).toContain('--test sets a create-only field; it cannot be changed by update');
    const nothing = await cli(['measures', 'update', 'msr_k']);
    expect(nothing.code).toBe(2);
    expect((await server.call('GET', '/diagnostic-measures/msr_k')).body.test).toBe('tst_bmp');
  });

  it('shows one record, and exits 3 for an unknown id', async () => {
    const { cli } = await setup();
    const r = await cli(['measures', 'show', 'msr_hgb', '-o', 'json']);
    expect(JSON.parse(r.stdout).name).toBe('Hemoglobin');
    const table = await cli(['measures', 'show', 'msr_hgb'], { stdoutTTY: true });
    // A describe view: aligned label and value lines, the ranges as a small table, then their picture.
    expect(table.stdout).toMatch(/^Name:\s+Hemoglobin$/m);
    expect(table.stdout).toMatch(/^Reference ranges\n\s+SEX\s+AGE\s+CONVENTIONAL\s+SI\s+PRECISION\s+ID$/m);
    expect(table.stdout).toMatch(/^\s+male\s+18–120 y\s+13\.5–17\.5 g\/dL\s+135–175 g\/L\s+1\s+rr_hgb_m$/m);
    expect(table.stdout).toContain('Range picture (g/dL)');
    const missing = await cli(['measures', 'show', 'msr_nope']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toBe('error: no measure with id msr_nope\n');
  });

  it('deletes several ids with --yes and reports each; refuses without a terminal', async () => {
    const { server, cli } = await setup();
    const refused = await cli(['measures', 'delete', 'msr_k']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/refusing to delete measure msr_k without --yes/);
    expect((await server.call('GET', '/diagnostic-measures/msr_k')).status).toBe(200);
    const r = await cli(['measures', 'delete', 'msr_k', 'msr_glu', '--yes', '-o', 'json']);
    expect(r.code).toBe(0);
    // The shape import and apply report: the counts, then each record's outcome.
    expect(JSON.parse(r.stdout)).toEqual({
      deleted: 2,
      notFound: 0,
      failed: 0,
      records: [
        { id: 'msr_k', outcome: 'deleted' },
        { id: 'msr_glu', outcome: 'deleted' },
      ],
    });
    expect(r.stderr).toBe('deleted measure msr_k\ndeleted measure msr_glu\n');
    const partial = await cli(['measures', 'delete', 'msr_hgb', 'msr_nope', '--yes'], { stdoutTTY: true });
    expect(partial.code).toBe(3);
    expect(partial.stderr).toContain('not found: measure msr_nope');
    // At a terminal, the outcome in one sentence.
    expect(partial.stdout).toBe('1 deleted, 1 not found, 0 failed\n');
    expect((await measures(server)).map((m) => m.id)).not.toContain('msr_hgb');
  });
});

describe('coverages and notifications commands', () => {
  it('notifications browse without a terminal exits 2 with one sentence pointing to list and watch', async () => {
    const { server, cli } = await setup();
    const before = (await server.call('GET', '/notifications')).body;
    const r = await cli(['notifications', 'browse']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: notifications browse needs a terminal\n' +
        'hint: in a script, use `clinadmin notifications list` (or `notifications watch` to follow new ones)\n',
    );
    expect((await server.call('GET', '/notifications')).body).toEqual(before);
  });

  it('creates, updates and deletes a coverage', async () => {
    const { server, cli } = await setup();
    const c = await cli([
      'coverages',
      'create',
      '--contract',
      'ctr_acme_2026',
      '--name',
      'Lipid panel',
      '--type',
      'override',
      '--payment-method',
      'prepaid',
      '--percentage',
      '50',
      '--ref',
      'svc_lipid',
      '--ref-type',
      'services',
    ]);
    expect(c.code).toBe(0);
    const created = JSON.parse(c.stdout);
    expect(created).toMatchObject({
      contract: 'ctr_acme_2026',
      insurer: 'org_acme_health',
      percentage: 50,
      refType: 'services',
    });
    const u = await cli(['coverages', 'update', created.id, '--amount', '12.5']);
    expect(JSON.parse(u.stdout).amount).toBe(12.5);
    const bad = await cli(['coverages', 'update', created.id, '--percentage', '150']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('percentage: must be from 0 to 100');
    const d = await cli(['coverages', 'delete', created.id, '--yes']);
    expect(d.code).toBe(0);
    expect((await server.call('GET', `/insurance-coverages/${created.id}`)).status).toBe(404);
  });

  it('reports the server refusing an unknown contract with exit 1 and its field errors', async () => {
    const { cli } = await setup();
    const r = await cli(['coverages', 'create', '--contract', 'ctr_nope', '--name', 'x', '--type', 'deduction']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: the API refused POST \/insurance-coverages \(422\): contract ctr_nope is not on file/,
    );
    expect(r.stderr).toContain('  - contract: unknown contract ctr_nope');
    // serve answers GET /contracts, so the CLI can say which there are.
    expect(r.stderr).toContain('hint: the contracts the server knows: ctr_acme_2026, ctr_state_2026');
  });

  it('names the place: a wrong base URL (404 for a collection), a refused token from the environment', async () => {
    const { server, cli } = await setup();
    const wrong = await cli(['measures', 'list'], { env: { CLINADMIN_BASE_URL: `${server.url}/api/v2` } });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toBe(
      `error: the API at ${server.url}/api/v2 has no /diagnostic-measures ` +
        '(404: no such path: /api/v2/diagnostic-measures)\n' +
        'hint: check the base URL with `clinadmin whoami`\n',
    );
    const refused = await cli(['measures', 'list'], { env: { CLINADMIN_TOKEN: 'stale-token' } });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(
      /^error: the API refused the token \(401\): .* \(the token came from env CLINADMIN_TOKEN\)\n/,
    );
  });

  it('shows the newest 50 notifications at a terminal and says how many it left out; --limit 0 shows all', async () => {
    const list = Array.from({ length: 60 }, (_, i) => ({
      id: `ntf_${String(i).padStart(2, '0')}`,
      createdAt: 1_790_000_000_000 + i * 60_000,
      code: 'c',
      type: 't',
      title: `Number ${i}`,
      body: '',
      seenBy: [],
    }));
    const server = createServer((_q, r) =>
      r.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(list)),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const env = {
      CLINADMIN_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      CLINADMIN_TOKEN: 't',
    };
    try {
      const shown = await runCli(['notifications', 'list'], { env, stdoutTTY: true });
      const rows = shown.stdout.trimEnd().split('\n').slice(1);
      expect(rows).toHaveLength(50);
      expect(rows[0]).toMatch(/^ntf_59 /);
      expect(shown.stderr).toBe('showing the newest 50 of 60 notifications; --limit 0 shows all\n');
      const all = await runCli(['notifications', 'list', '--limit', '0'], { env, stdoutTTY: true });
      expect(all.stdout.trimEnd().split('\n')).toHaveLength(61);
      expect(all.stderr).toBe('');
      const piped = await runCli(['notifications', 'list', '-o', 'json'], { env });
      expect(JSON.parse(piped.stdout)).toHaveLength(60);
    } finally {
      server.close();
    }
  });

  it('shows whether the current account has seen each notification', async () => {
    const { cli } = await setup();
    const r = await cli(['notifications', 'list'], { stdoutTTY: true, env: { CLINADMIN_ACCOUNT: 'acc_support' } });
    expect(r.stdout).toMatch(/^ntf_queue_1 .* new$/m);
    expect(r.stdout).toMatch(/^ntf_queue_2 .* seen$/m);
    const show = await cli(['notifications', 'show', 'ntf_queue_1', '-o', 'json']);
    expect(JSON.parse(show.stdout).seenBy).toEqual(['acc_tester']);
  });

  it('sends raw requests with api', async () => {
    const { cli } = await setup();
    const r = await cli(['api', 'PATCH', '/diagnostic-measures/msr_k', '--data', '{"unit":"mmol/L"}']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).unit).toBe('mmol/L');
    const g = await cli(['api', 'get', 'notifications']);
    expect(Array.isArray(JSON.parse(g.stdout))).toBe(true);
    const bad = await cli(['api', 'FETCH', '/x']);
    expect(bad.code).toBe(2);
  });
});

describe('errors and exit codes', () => {
  it('exits 4 when not configured or the token is refused', async () => {
    const dir = await tempDir();
    const none = await runCli(['measures', 'list'], { env: { CLINADMIN_CONFIG_DIR: dir } });
    expect(none.code).toBe(4);
    expect(none.stderr).toMatch(/no base URL is configured for profile default/);
    const { cli } = await setup();
    const refused = await cli(['measures', 'list'], { env: { CLINADMIN_TOKEN: 'wrong' } });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/the API refused the token \(401\)/);
  });

  it('exits 1 with one sentence when nothing listens', async () => {
    const { cli } = await setup();
    const r = await cli(['measures', 'list', '--base-url', 'http://127.0.0.1:9', '--timeout', '2']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: cannot connect to the API at http:\/\/127\.0\.0\.1:9: connection refused\n/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 for usage errors, with a hint', async () => {
    const r = await runCli(['measures', 'frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: unknown command 'frobnicate'/);
    const o = await runCli(['measures', 'list', '-o', 'xml']);
    expect(o.code).toBe(2);
    // Import and apply check their options once, before reading a file or asking the server anything.
    for (const [verb, value] of [
      [['measures', 'import'], 'abc'],
      [['coverages', 'apply'], '65'],
    ] as const) {
      const c = await runCli([...verb, 'nowhere.json', '--concurrency', value], {
        env: { CLINADMIN_BASE_URL: 'http://127.0.0.1:9', CLINADMIN_TOKEN: 't' },
      });
      expect(c.code).toBe(2);
      expect(c.stderr).toBe(
        `error: invalid option --concurrency: must be a whole number from 1 to 64 (got "${value}")\n`,
      );
    }
  });

  it("shows a command's inherited options under their own heading, fitted to the width, never mid-word", async () => {
    const r = await runCli(['measures', 'create', '--help'], { env: { COLUMNS: '60' } });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines).toContain('Inherited options:');
    expect(lines.indexOf('Inherited options:')).toBeGreaterThan(lines.indexOf('Options:'));
    expect(r.stdout).toMatch(/^ {2}--base-url <url> {2,}API base URL/m);
    for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(60);
    const group = await runCli(['help', 'measures'], { env: { COLUMNS: '80' } });
    expect(group.stdout).toMatch(/^Commands:\n {2}list\|ls /m);
  });

  it('refuses a --fields name the resource does not have, with a guess and the list of fields', async () => {
    const env = { CLINADMIN_BASE_URL: 'http://127.0.0.1:9', CLINADMIN_TOKEN: 't' };
    const r = await runCli(['measures', 'list', '--fields', 'id,nmae', '-o', 'json'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: unknown field nmae for --fields; did you mean name\?\nhint: the fields of measures: id, test, name, /,
    );
    const n = await runCli(['notifications', 'show', 'ntf_1', '--fields', 'titel,colour'], { env });
    expect(n.stderr).toMatch(/^error: unknown fields titel, colour for --fields; did you mean title\?/);
  });

  it('checks every option once, at the top of the command, naming the flag and what was given', async () => {
    // Nothing listens on port 9: each refusal comes before any request.
    const env = { CLINADMIN_BASE_URL: 'http://127.0.0.1:9', CLINADMIN_TOKEN: 't' };
    const cases: [string[], string][] = [
      [
        ['measures', 'list', '--timeout', '0'],
        'invalid option --timeout: must be a positive number of seconds, at most 2147483 (24 days) (got "0")',
      ],
      [
        ['--timeout', 'soon', 'coverages', 'show', 'cov_1'],
        'invalid option --timeout: must be a positive number of seconds, at most 2147483 (24 days) (got "soon")',
      ],
      [
        ['measures', 'list', '--fields', ' , '],
        'invalid option --fields: needs at least one field name, as in --fields id,name (got " , ")',
      ],
      [
        ['measures', 'list', '--base-url', 'ftp://x'],
        'invalid option --base-url: must be an http:// or https:// URL (got "ftp://x")',
      ],
      [
        ['notifications', 'list', '--limit', '-1'],
        'invalid option --limit: must be a whole number of at least 0 ' +
          '(got "-1": a minus sign, where no negative is taken)',
      ],
      [
        ['notifications', 'list', '--since', 'yesterday-ish'],
        'invalid option --since: is not a duration (90s, 15m, 1h, 2d), a time of day (08:00), today, yesterday, ' +
          'a weekday (monday), or an ISO date or time (2026-11-20, 2026-11-20T08:00) (got "yesterday-ish")',
      ],
      [
        ['notifications', 'watch', '--interval', '-1'],
        'invalid option --interval: must be a positive number of seconds, at most 2147483 (24 days) ' +
          '(got "-1": a minus sign, where no negative is taken)',
      ],
      [
        ['notifications', 'watch', '-o', 'csv'],
        'invalid option --output: watch prints lines: use -o table or -o ndjson (got "csv")',
      ],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args, { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toBe(`error: ${message}\n`);
    }
    const two = await runCli(['notifications', 'list', '--limit', 'x', '--timeout', '-5'], { env });
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('error: invalid options');
    expect(two.stderr).toContain(
      '--timeout: must be a positive number of seconds, at most 2147483 (24 days) ' +
        '(got "-5": a minus sign, where no negative is taken)',
    );
    expect(two.stderr).toContain('--limit: must be a whole number of at least 0 (got "x")');
  });
});

describe('list filters', () => {
  it('filters measures by test, type and part of the name, and coverages by contract, client-side', async () => {
    const { cli } = await setup();
    const ids = async (argv: string[]) =>
      JSON.parse((await cli([...argv, '-o', 'json'])).stdout).map((r: { id: string }) => r.id);
    expect(await ids(['measures', 'list', '--test', 'tst_bmp'])).toEqual(['msr_k', 'msr_glu']);
    expect(await ids(['measures', 'list', '--type', 'posneg'])).toEqual(['msr_hcg']);
    expect(await ids(['measures', 'list', '--name-like', 'GLUC'])).toEqual(['msr_glu']);
    expect(await ids(['measures', 'list', '--test', 'tst_cbc', '--limit', '1'])).toEqual(['msr_hgb']);
    expect(await ids(['coverages', 'list', '--contract', 'ctr_state_2026'])).toEqual(['cov_state_tubes']);
    // The same filters on a table, and on a held format.
    const table = await cli(['measures', 'list', '--test', 'tst_bmp', '-o', 'table']);
    expect(table.stdout.trimEnd().split('\n')).toHaveLength(3);
    const yaml = await cli(['measures', 'list', '--name-like', 'urine', '-o', 'yaml']);
    expect(yaml.stdout).toMatch(/^- id: msr_ua_color\n/);
    const none = await cli(['measures', 'list', '--test', 'tst_none', '-o', 'table']);
    expect(none.stderr).toBe('no measures\n');
  });
});

describe('update of ranges', () => {
  const ranges = async (server: TestServer) =>
    ((await server.call('GET', '/diagnostic-measures/msr_hgb')).body.referenceRanges as Record<string, unknown>[]).map(
      (r) => `${r.id ?? '-'} ${r.sex} ${r.min}-${r.max}`,
    );

  it('adds, sets and removes a range in place, keeping the others whole', async () => {
    const { server, cli } = await setup();
    expect(await ranges(server)).toEqual(['rr_hgb_m male 13.5-17.5', 'rr_hgb_f female 12-15.5', 'rr_hgb_c all 11-14']);
    const set = await cli(['measures', 'update', 'msr_hgb', '--set-reference-range', 'rr_hgb_f 12.1-15.6 sex=female']);
    expect(set.code).toBe(0);
    const add = await cli(['measures', 'update', 'msr_hgb', '--add-reference-range', '10-13 age=0-1']);
    expect(add.code).toBe(0);
    expect(await ranges(server)).toEqual([
      'rr_hgb_m male 13.5-17.5',
      'rr_hgb_f female 12.1-15.6',
      'rr_hgb_c all 11-14',
      `${(await server.call('GET', '/diagnostic-measures/msr_hgb')).body.referenceRanges[3].id} all 10-13`,
    ]);
    const remove = await cli([
      'measures',
      'update',
      'msr_hgb',
      '--remove-reference-range',
      '4',
      '--remove-reference-range',
      'rr_hgb_c',
    ]);
    expect(remove.code).toBe(0);
    expect(await ranges(server)).toEqual(['rr_hgb_m male 13.5-17.5', 'rr_hgb_f female 12.1-15.6']);
    // The male range kept its SI bounds and precisions: only what was named changed.
    const male = (await server.call('GET', '/diagnostic-measures/msr_hgb')).body.referenceRanges[0];
    expect(male).toMatchObject({ simin: 135, simax: 175, minPrecision: 1 });
    const missing = await cli(['measures', 'update', 'msr_hgb', '--remove-reference-range', '9']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'error: --remove-reference-range: no range 9; the ranges are 1 (rr_hgb_m), 2 (rr_hgb_f)\n',
    );
  });

  it('sets what a range form gives and keeps the rest: a band is widened only when asked', async () => {
    const { server, cli } = await setup();
    const female = async () => (await server.call('GET', '/diagnostic-measures/msr_hgb')).body.referenceRanges[1];
    expect(await female()).toMatchObject({ id: 'rr_hgb_f', sex: 'female', ageMin: 18, ageMax: 121, simin: 120 });
    // New limits: the band stays the adult women's; the SI bounds, which restated the old limits, go.
    expect((await cli(['measures', 'update', 'msr_hgb', '--set-reference-range', '2 12.1-15.6'])).code).toBe(0);
    expect(await female()).toEqual({
      id: 'rr_hgb_f',
      min: 12.1,
      max: 15.6,
      sex: 'female',
      ageMin: 18,
      ageMax: 121,
    });
    // Only a precision: the limits stay, at that precision.
    expect((await cli(['measures', 'update', 'msr_hgb', '--set-reference-range', '2 precision=2'])).code).toBe(0);
    expect(await female()).toMatchObject({ min: 12.1, max: 15.6, minPrecision: 2, maxPrecision: 2, ageMin: 18 });
    // The men's limits given again with a precision: its SI bounds still restate them, and stay.
    expect((await cli(['measures', 'update', 'msr_hgb', '--set-reference-range', '1 13.50-17.50'])).code).toBe(0);
    const men = (await server.call('GET', '/diagnostic-measures/msr_hgb')).body.referenceRanges[0];
    expect(men).toMatchObject({ min: 13.5, minPrecision: 2, simin: 135, simax: 175, sex: 'male', ageMin: 18 });
    // Widened to everyone, every age: now a band for all beside the men's and the children's, which the dry
    // run says as the write would, and --strict refuses.
    const args = ['measures', 'update', 'msr_hgb', '--set-reference-range', '2 sex=all age=any'];
    const strict = await cli([...args, '--dry-run', '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain('  - referenceRanges[1]: its age band overlaps referenceRanges[0] for sex male');
    const wide = await cli(args);
    expect(wide.code, wide.stderr).toBe(0);
    expect(wide.stderr).toContain('warning: referenceRanges[2]: its age band overlaps referenceRanges[1] for sex all');
    const widened = await female();
    expect(widened).toMatchObject({ id: 'rr_hgb_f', min: 12.1, max: 15.6, sex: 'all' });
    expect(widened.ageMin).toBeUndefined();
    expect(widened.ageMax).toBeUndefined();
    // The limits are one part: a set that leaves out an end drops it, and says so.
    const low = await cli(['measures', 'update', 'msr_hgb', '--set-panic-range', '1 <6.5', '--dry-run']);
    expect(low.stderr).toContain(
      'warning: --set-panic-range 1: its critical high limit 20 is dropped, as "<6.5" gives none; ' +
        'give both ends to keep it',
    );
    // A range is named once a command; a set keeps the id; an added id is new and not all digits.
    const refusals: [string[], string][] = [
      [['--set-reference-range', '1 13-17', '--remove-reference-range', 'rr_hgb_m'], 'name each range once'],
      [['--set-reference-range', '1 13-17 id=rr_new'], "a set keeps the range's id; leave out id=rr_new"],
      [['--add-reference-range', '1-2 id=rr_hgb_m'], "referenceRanges[3].id: is referenceRanges[0]'s id too"],
      [['--add-reference-range', '1-2 id=3'], 'id=3 would read as a place'],
    ];
    for (const [more, said] of refusals) {
      const refused = await cli(['measures', 'update', 'msr_hgb', ...more]);
      expect(refused.code, more.join(' ')).toBe(2);
      expect(refused.stderr).toContain(said);
    }
  });

  it('refuses --reference-range on update, and replaces all only with --yes without a terminal', async () => {
    const { server, cli } = await setup();
    const refused = await cli(['measures', 'update', 'msr_hgb', '--reference-range', '13.6-17.5 sex=male']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: on update, --reference-range would replace every range the measure has/);
    expect(refused.stderr).toContain('hint: use --add-reference-range, --set-reference-range');
    const unconfirmed = await cli(['measures', 'update', 'msr_hgb', '--replace-reference-ranges', '13.6-17.5']);
    expect(unconfirmed.code).toBe(2);
    expect(await ranges(server)).toHaveLength(3);
    const replaced = await cli(['measures', 'update', 'msr_hgb', '--replace-reference-ranges', '13.6-17.5', '--yes']);
    expect(replaced.code).toBe(0);
    expect((await ranges(server)).map((r) => r.split(' ').slice(1).join(' '))).toEqual(['all 13.6-17.5']);
  });

  it('reads the critical-limit forms on the range verbs of update, and refuses the open forms', async () => {
    const { server, cli } = await setup();
    const open = await cli(['measures', 'update', 'msr_k', '--add-panic-range', '..2.5 sex=male']);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('--add-panic-range "..2.5" is not a form for critical limits; write "<2.5"');
    const added = await cli(['measures', 'update', 'msr_k', '--add-panic-range', '<3 sex=male age=0-28d']);
    expect(added.code, added.stderr).toBe(0);
    const set = await cli(['measures', 'update', 'msr_k', '--set-panic-range', '1 >7']);
    expect(set.code, set.stderr).toBe(0);
    // FHIR's critical range: below min or above max is critical.
    expect((await server.call('GET', '/diagnostic-measures/msr_k')).body.panicRanges).toEqual([
      { max: 7, sex: 'all' },
      { min: 3, sex: 'male', ageMin: 0, ageMax: 29 / 365.25 },
    ]);
  });

  it('prints the diff of any update with --dry-run and sends nothing', async () => {
    const { server, cli } = await setup();
    const r = await cli(['measures', 'update', 'msr_k', '--unit', 'mmol/L', '--remove-panic-range', '1', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      '~ update msr_k\n' +
        '    unit: "mEq/L" → "mmol/L"\n' +
        '    panicRanges[0]: removed critical < 2.5 or > 6.5 [< 2.5 or > 6.5]\n' +
        'dry run: the changes above; nothing was sent\n',
    );
    expect((await server.call('GET', '/diagnostic-measures/msr_k')).body.unit).toBe('mEq/L');
  });
});
