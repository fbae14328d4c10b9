// Covers: src/output/prompts.ts src/commands/measures/prompt.ts src/commands/coverages/prompt.ts
// Covers: src/commands/resource/delete-run.ts src/commands/login-run.ts src/schemas/names.ts
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, TOKEN, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

const ENTER = '\r';
const DOWN = '\x1b[B';

async function setup() {
  const server = await testServer({ seed: true });
  const dir = await tempDir();
  const env = cliEnv(server.url, dir);
  return { server, dir, env };
}

describe('prompts at a terminal', () => {
  it("asks for a measure's missing fields, with a select for the type and a loop for ranges", async () => {
    const { server, env } = await setup();
    const r = await runCli(['measures', 'create', '--unit', 'mmol/L'], {
      env,
      interactive: true,
      keys: [
        'tst_bmp',
        ENTER,
        'Sodium',
        ENTER,
        ENTER /* numeric, the default */,
        ENTER /* add a range? yes */,
        '135-145 age=18-99',
        ENTER,
        'n',
        ENTER,
        // A panic range: the open form, which read the other way before, is refused; the limits are taken.
        'y',
        ENTER,
        '..120',
        ENTER,
        /not a form for critical limits/,
        '\x7f'.repeat(5),
        '120-160',
        ENTER,
        'n',
        ENTER,
      ],
    });
    expect(r.stderr).toContain('Medical test id (--test):');
    expect(r.stderr).toContain('Result type (--type):');
    expect(r.stderr).toContain('added 135–145 mmol/L (18–99 y)');
    expect(r.stderr).toContain('Add a panic range (critical limits)?');
    expect(r.stderr).toContain('write "<2.5" (critical below 2.5), ">6.5" (critical above 6.5) or "2.5-6.5"');
    expect(r.stderr).toContain('added critical < 120 or > 160 mmol/L');
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created).toMatchObject({
      test: 'tst_bmp',
      name: 'Sodium',
      type: 'numeric',
      unit: 'mmol/L',
      referenceRanges: [{ min: 135, max: 145, ageMin: 18, ageMax: 100, sex: 'all' }],
      // FHIR's critical range: results below 120 or above 160 are critical.
      panicRanges: [{ min: 120, max: 160, sex: 'all' }],
    });
    expect((await server.call('GET', `/diagnostic-measures/${created.id}`)).status).toBe(200);
  });

  it('takes ages with their unit at the prompt and says the band back in them', async () => {
    const { env } = await setup();
    const bad = '1.4-8.7 age=0-24hs';
    const r = await runCli(['measures', 'create', '--test', 'tst_neo', '--unit', 'mg/dL'], {
      env,
      interactive: true,
      keys: [
        'Bilirubin',
        ENTER,
        ENTER /* numeric */,
        ENTER /* add a range? yes */,
        bad,
        ENTER,
        /is not an age/,
        '\x7f'.repeat(bad.length),
        '1.4-8.7 age=0-24h',
        ENTER,
        'y',
        ENTER,
        '3.4-11.5 age=25h-48h',
        ENTER,
        'n',
        ENTER,
        ENTER /* add a panic range? no */,
      ],
    });
    expect(r.stderr).toContain('"24hs" is not an age; write years (17, 2.5) or a count with its unit');
    expect(r.stderr).toContain('added 1.4–8.7 mg/dL (0–24 h)');
    expect(r.stderr).toContain('added 3.4–11.5 mg/dL (25–48 h)');
    expect(r.code, r.stderr).toBe(0);
    const ranges = JSON.parse(r.stdout).referenceRanges;
    // The request carries exact years: 25 h is 25/8766 of a year, and 25–48 h ends before hour 49.
    expect(ranges[1].ageMin).toBe(25 / 8766);
    expect(ranges[1].ageMax).toBe(49 / 8766);
  });

  it('checks each answer as it is typed, with the shared rules, and asks again with the reason', async () => {
    const { env } = await setup();
    const bad = '10.5-8.5 sex=mal';
    const r = await runCli(['measures', 'create', '--test', 'tst_bmp', '--unit', 'mg/dL'], {
      env,
      interactive: true,
      keys: [
        'Checked',
        ENTER,
        ENTER /* numeric */,
        ENTER /* add a range? yes */,
        bad,
        ENTER,
        /sex: must be one of/,
        '\x7f'.repeat(bad.length),
        '10.5-8.5',
        ENTER,
        /must not be greater/,
        '\x7f'.repeat(8),
        '8.5-10.5',
        ENTER,
        'n',
        ENTER,
        ENTER /* add a panic range? no, the default */,
      ],
    });
    expect(r.stderr).toContain('sex: must be one of: all, male, female');
    expect(r.stderr).toContain('max: min (10.5) must not be greater than max (8.5)');
    expect(r.stderr).not.toContain('added 10.5');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).referenceRanges).toMatchObject([{ min: 8.5, max: 10.5 }]);
  });

  it('asks a name again when it holds a character that draws nothing, naming its code point', async () => {
    const { server, env } = await setup();
    const r = await runCli(['coverages', 'create', '--contract', 'ctr_acme_2026', '--type', 'deduction'], {
      env,
      interactive: true,
      keys: ['Co\u200bpay', ENTER, /U\+200B/, '\x7f'.repeat(6), 'Copay', ENTER, ENTER /* the first payment method */],
    });
    expect(r.stderr).toContain('name: U+200B (zero width space) is not allowed');
    const names = (await server.call('GET', '/insurance-coverages')).body.map((c: { name: string }) => c.name);
    expect(names).not.toContain('Co\u200bpay');
    expect(names).toContain('Copay');
    expect(r.code).toBe(0);
  });

  it('checks the flags given before asking anything', async () => {
    const { server, env } = await setup();
    const r = await runCli(['coverages', 'create', '--contract', 'ctr_acme_2026', '--percentage', '150'], {
      env,
      interactive: true,
      keys: [],
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: the coverage is invalid; nothing was asked or sent\n  - percentage: must be from 0 to 100\n',
    );
    expect((await server.call('GET', '/insurance-coverages')).body).toHaveLength(3);
  });

  it('selects a coverage type and payment method with the arrow keys', async () => {
    const { env } = await setup();
    const r = await runCli(['coverages', 'create', '--contract', 'ctr_acme_2026', '--name', 'Imaging'], {
      env,
      interactive: true,
      keys: [DOWN, ENTER /* override */, DOWN, ENTER /* postpaid */],
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ type: 'override', paymentMethod: 'postpaid', name: 'Imaging' });
  });

  it('asks before deleting, naming the records, host and profile; no keeps the record', async () => {
    const { server, env } = await setup();
    const no = await runCli(['measures', 'delete', 'msr_k'], { env, interactive: true, keys: ['n', ENTER] });
    expect(no.stderr).toContain(`Delete measure msr_k on ${server.url} (profile default)?`);
    expect(no.code).toBe(2);
    expect((await server.call('GET', '/diagnostic-measures/msr_k')).status).toBe(200);
    const yes = await runCli(['measures', 'delete', 'msr_k'], { env, interactive: true, keys: ['y', ENTER] });
    expect(yes.code).toBe(0);
    expect((await server.call('GET', '/diagnostic-measures/msr_k')).status).toBe(404);
  });

  it('asks login for the base URL and a masked token, and stores them', async () => {
    const { server, dir } = await setup();
    const env = { CLINADMIN_CONFIG_DIR: join(dir, 'cfg') };
    const r = await runCli(['login'], { env, interactive: true, keys: [server.url, ENTER, TOKEN, ENTER] });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('API token:');
    expect(r.stderr).not.toContain(TOKEN);
    const config = JSON.parse(await readFile(join(dir, 'cfg', 'config.json'), 'utf8'));
    expect(config.profiles.default).toEqual({ baseUrl: server.url, token: TOKEN });
  });
});
