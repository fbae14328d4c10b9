// Covers: src/core/ages.ts src/core/range-ids.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loggedIn } from '../helpers/logged-in.js';
import { runShippedAsProcess } from '../helpers/run-shipped.js';

// The built CLI against `clinadmin serve` (the serve and the login as processes, the commands in process, as
// what they answer is the point): a pediatric catalog written as labs publish bands (hours of
// life, days, months, years), through import, evaluate, lint, show and both exports. Expected answers come
// from the lab's completed-unit notation (0–28 d is every age before day 29) and FHIR R4's Range, whose
// ends are exact ages (high is the first age past the band), as `clinadmin help ranges` says.

const CATALOG = new URL('../fixtures/ages/pediatric-chemistry.json', import.meta.url).pathname;

describe('ages as labs write them, end to end', () => {
  it('imports bands in h, d, mo and y, answers by them, and shows and exports them in their units', async () => {
    const { env, dir } = await loggedIn();
    const run = (args: string[]) => runShippedAsProcess(args, { env });
    const lint = await run(['measures', 'lint', CATALOG]);
    expect(lint.stderr.match(/not covered|overlaps/g)).toEqual(['not covered']);
    expect(lint.stderr).toContain('ages 8–30 d are not covered for sex all');
    const imp = await run(['measures', 'import', CATALOG, '-o', 'json']);
    expect(imp.exitCode, imp.stderr).toBe(0);
    const ids = Object.fromEntries(
      (JSON.parse(imp.stdout).records as { name: string; id: string }[]).map((r) => [r.name, r.id]),
    );
    const answer = async (name: string, value: string, age: string) => {
      const r = await run(['measures', 'evaluate', ids[name], '--value', value, '--age', age, '-o', 'json']);
      expect(r.exitCode, r.stderr).toBe(0);
      return JSON.parse(r.stdout).interpretation;
    };
    expect(await answer('Bilirubin, total', '10', '36h')).toBe('normal');
    expect(await answer('Bilirubin, total', '2', '30h')).toBe('low');
    expect(await answer('Potassium', '5.0', '11mo')).toBe('normal');
    expect(await answer('Potassium', '5.0', '11.9mo')).toBe('normal');

    const show = await run(['measures', 'show', ids.Potassium, '-o', 'table']);
    for (const band of ['0–28 d', '29 d–11 mo', '1–17 y']) expect(show.stdout).toContain(band);
    expect(show.stdout).not.toMatch(/\bwk\b/);

    const csv = await run(['measures', 'export', '--format', 'csv']);
    expect(csv.stdout).toContain(',0,28d,');
    expect(csv.stdout).toContain(',18y,120y,');
    expect(csv.stdout).toContain(',29d,11mo,');
    expect(csv.stdout).toContain(',25h,48h,');

    const fhir = await run(['measures', 'export', '--format', 'fhir']);
    expect(fhir.exitCode, fhir.stderr).toBe(0);
    await writeFile(join(dir, 'back.fhir.json'), fhir.stdout);
    for (const od of JSON.parse(fhir.stdout).entry.map((e: { resource: unknown }) => e.resource))
      for (const q of od.qualifiedInterval ?? [])
        if (q.age?.low && q.age?.high) expect(q.age.low.code, JSON.stringify(q.age)).toBe(q.age.high.code);
    const back = await run(['measures', 'import', join(dir, 'back.fhir.json'), '--dry-run']);
    expect(back.exitCode, back.stderr).toBe(0);
    expect(back.stdout).toContain('dry run: 0 to create, 0 to update');
  });

  it('keeps rr_k on the adult potassium band when a file puts a neonatal band in front', async () => {
    const { env, dir } = await loggedIn();
    const run = (args: string[]) => runShippedAsProcess(args, { env });
    const shown = JSON.parse((await run(['measures', 'show', 'msr_k', '-o', 'json'])).stdout);
    const file = {
      test: shown.test,
      name: shown.name,
      referenceRanges: [
        { min: 3.7, max: 5.9, ageMin: 0, ageMax: '28d' },
        ...shown.referenceRanges.map(({ id: _id, ...r }: Record<string, unknown>) => r),
      ],
    };
    await writeFile(join(dir, 'k.json'), JSON.stringify(file));
    const r = await run(['measures', 'import', join(dir, 'k.json')]);
    expect(r.exitCode, r.stderr).toBe(0);
    const after = JSON.parse((await run(['measures', 'show', 'msr_k', '-o', 'json'])).stdout);
    expect(after.referenceRanges.map((x: { id: string; ageMin: number }) => [x.id === 'rr_k', x.ageMin])).toEqual([
      [false, 0],
      [true, 18],
    ]);
  });
});
