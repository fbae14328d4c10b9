// Covers: src/api/client.ts src/api/links.ts src/api/refusal.ts src/resources/time.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runShipped } from '../helpers/run-shipped.js';
import { tempDir } from '../helpers/tmp.js';
import { type Variant, variantServer } from '../helpers/variant.js';

// The built CLI, in process (runShipped), against a server that answers as a real service may
// (test/helpers/variant.ts): wrapped and paged lists, errors in its own shapes, 403s, createdAt in seconds,
// fields and values it does not know.
// watch against it runs as a process until Ctrl-C: test/e2e/real-service.test.ts.

let v: Variant;
let dir: string;
beforeEach(async () => {
  v = await variantServer();
  dir = await tempDir();
});
afterEach(async () => {
  await v.close();
});

const cli = (args: string[], env: Record<string, string> = {}) =>
  runShipped(args, { env: { ...v.env, CLINADMIN_CONFIG_DIR: join(dir, 'config'), COLUMNS: '200', ...env }, cwd: dir });

describe('against a service that answers in its own shapes', () => {
  it('reads wrapped lists in pages as one list, streamed or whole, keeping what it does not know', async () => {
    const json = await cli(['measures', 'list', '-o', 'json']);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toEqual(v.measures);
    const ndjson = await cli(['measures', 'list', '-o', 'ndjson']);
    expect(
      ndjson.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual(['m1', 'm2', 'm3']);
    const coverages = await cli(['coverages', 'list', '-o', 'json']);
    expect(JSON.parse(coverages.stdout)).toEqual(v.coverages);
    // A table of every record, the unknown type value as it came.
    const table = await cli(['measures', 'list', '-o', 'table']);
    expect(table.code).toBe(0);
    for (const name of ['Sodium', 'Potassium', 'Ratio', 'ratio']) expect(table.stdout).toContain(name);
  });

  it('shows createdAt in seconds as the date it is, and --since reads it so', async () => {
    const year = String(new Date().getFullYear());
    const table = await cli(['measures', 'list', '-o', 'table', '--fields', 'id,createdAt']);
    expect(table.stdout).toContain(year);
    expect(table.stdout).not.toContain('1970');
    const show = await cli(['measures', 'show', 'm1', '-o', 'table']);
    expect(show.stdout).toContain(year);
    // The describe view shows a field this CLI does not know.
    expect(show.stdout).toContain('labCode');
    const since = await cli(['notifications', 'list', '--since', '2h', '-o', 'json']);
    expect(JSON.parse(since.stdout).map((n: { id: string }) => n.id)).toEqual(['n2']);
    // What the server sent is shown as sent: seconds stay seconds in JSON.
    expect(JSON.parse((await cli(['measures', 'show', 'm1', '-o', 'json'])).stdout).createdAt).toBe(
      v.measures[0].createdAt,
    );
  });

  it("reports refusals in the server's words: 400 with its code, 401 with a login hint, 403 without", async () => {
    const dup = await cli(['measures', 'create', '--test', 'tst_bmp', '--name', 'Sodium']);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toBe(
      'error: the API refused POST /diagnostic-measures (400): name must be unique within the test (DUPLICATE_NAME)\n',
    );
    const made = await cli(['measures', 'create', '--test', 'tst_bmp', '--name', 'Chloride', '-o', 'json']);
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ id: 'v10', name: 'Chloride' });
    const updated = await cli(['measures', 'update', 'm2', '--unit', 'mEq/L', '-o', 'json']);
    expect(JSON.parse(updated.stdout).unit).toBe('mEq/L');
    const forbidden = await cli(['measures', 'delete', 'm2', '--yes']);
    expect(forbidden.code).toBe(4);
    expect(forbidden.stderr).toBe(
      'error: the API does not allow DELETE /diagnostic-measures/m2 (403): ' +
        'forbidden: account acc_variant may not delete diagnostic-measures\n',
    );
    const refused = await cli(['measures', 'list'], { CLINADMIN_TOKEN: 'stale' });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(
      new RegExp(
        String.raw`^error: the API refused the token \(401\): token expired \(TOKEN_EXPIRED\) ` +
          String.raw`\(the token came from env CLINADMIN_TOKEN\)\nhint: .*clinadmin login`,
      ),
    );
  });

  it('imports and applies against paged, wrapped lists and records with values it does not know', async () => {
    await writeFile(
      join(dir, 'measures.json'),
      JSON.stringify([
        { test: 'tst_bmp', name: 'Sodium', unit: 'mmol/L' },
        { test: 'tst_bmp', name: 'Potassium', unit: 'mEq/L' },
        { test: 'tst_ua', name: 'Ratio', description: 'urine albumin/creatinine' },
        { test: 'tst_new', name: 'Chloride' },
      ]),
    );
    const plan = await cli(['measures', 'import', 'measures.json', '--dry-run']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('dry run: 1 to create, 2 to update, 1 unchanged, 0 in error; nothing was sent');
    const done = await cli(['measures', 'import', 'measures.json', '-o', 'json']);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ created: 1, updated: 2, unchanged: 1, failed: 0 });
    expect(v.measures.find((m) => m.id === 'm3')).toMatchObject({
      type: 'ratio',
      description: 'urine albumin/creatinine',
    });
    await writeFile(
      join(dir, 'coverages.json'),
      JSON.stringify([{ contract: 'ctr_1', name: 'CBC copay', type: 'deduction', amount: 20 }]),
    );
    const applied = await cli(['coverages', 'apply', 'coverages.json', '-o', 'json']);
    expect(JSON.parse(applied.stdout)).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
    expect(v.coverages[0].amount).toBe(20);
  });
});
