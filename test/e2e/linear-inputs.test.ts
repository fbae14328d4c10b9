// Covers: src/formats/hl7/ src/formats/fhir/from-observation-definition.ts src/core/nearest.ts src/core/problems.ts
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

// Readers linear in their input: each input here is one a quadratic path took minutes over. Each runs the
// built binary, so the test's timeout catches a hang (in process, a blocked event loop would hold the timer);
// speed itself is measured by `npm run bench -- --linear`.

const MSH = (type: string) => `MSH|^~\\&|L||||20261120||MFN^${type}^MFN_${type}|1|P|2.5.1`;

async function lint(name: string, text: string, args: string[] = []) {
  const dir = await tempDir();
  await writeFile(join(dir, name), text);
  const r = await clinadmin(['measures', 'lint', name, '-o', 'json', ...args], { cwd: dir });
  return { code: r.exitCode, stderr: r.stderr };
}

describe('warnings name their source in time linear in the ranges', () => {
  it('lints 30,000 repetitions of one HL7 RFR, each warning naming its repetition', async () => {
    const n = 30_000;
    const om2 = `OM2|1|g/dL^^UCUM||||${Array.from({ length: n }, () => '13.5&17.5^M').join('~')}`;
    const text = [MSH('M08'), 'MFE|MAD|1||1|CWE', 'OM1|1|718-7^Hemoglobin^LN|NM', om2].join('\r');
    const r = await lint('rfr.hl7', text, ['--test', 't']);
    expect(r.code, r.stderr.slice(0, 500)).toBe(0);
    expect(r.stderr).toContain(`segment 4 (OM2-6) repetition ${n} (referenceRanges[${n - 1}]): its age band overlaps`);
  });

  it('lints 12,000 FHIR qualifiedIntervals, each warning naming its interval', async () => {
    const n = 12_000;
    const interval = { category: 'reference', range: { low: { value: 1 }, high: { value: 2 } }, gender: 'male' };
    const od = {
      resourceType: 'ObservationDefinition',
      code: { text: 'Potassium' },
      permittedDataType: ['Quantity'],
      quantitativeDetails: { unit: { coding: [{ system: 'http://unitsofmeasure.org', code: 'mmol/L' }] } },
      qualifiedInterval: Array.from({ length: n }, () => interval),
    };
    const r = await lint('od.json', JSON.stringify(od), ['--test', 't']);
    expect(r.code, r.stderr.slice(0, 500)).toBe(0);
    expect(r.stderr).toContain(`qualifiedInterval[${n - 1}]`);
  });
});

describe('HL7 batteries in time linear in their members', () => {
  it('lints one observation listed in 160,000 M10 batteries, naming the first few', async () => {
    const n = 160_000;
    const lines = [MSH('M08'), 'MFE|MAD|1||1|CWE', 'OM1|1|718-7^Hemoglobin^LN|NM|||x', MSH('M10')];
    for (let i = 0; i < n; i++) lines.push(`MFE|MAD|${i}||B${i}|CWE`, `OM1|${i}|B${i}^B${i}^L`, `OM5|${i}|718-7^Hb^LN`);
    const r = await lint('batteries.hl7', lines.join('\r'));
    expect(r.stderr).toContain(
      `OM5-2: a member of batteries B0, B1, B2, B3, B4, B5, B6, B7, B8, B9 and ${n - 10} more: imported under B0`,
    );
  });
});

describe('HL7 parsing in memory linear in the input', () => {
  it('lints 25 MB of records dense in repetitions under a heap of 400 MB', async () => {
    // Each `~` split into arrays of its own took about 100 bytes a byte held at once: 2.6 GB for this file.
    const n = 24_000;
    const lines = [MSH('M08')];
    const empty = '~'.repeat(1000);
    for (let i = 1; i <= n; i++)
      lines.push(`MFE|MAD|${i}||C${i}^Obs ${i}^L|CWE`, `OM1|${i}|C${i}^Obs ${i}^L|NM|||x|${empty}`);
    const dir = await tempDir();
    await writeFile(join(dir, 'dense.hl7'), lines.join('\r'));
    const r = await clinadmin(['measures', 'lint', 'dense.hl7', '--test', 't', '-o', 'json'], {
      cwd: dir,
      env: { NODE_OPTIONS: '--max-old-space-size=400' },
    });
    expect(r.exitCode, r.stderr.slice(0, 500)).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ checked: n });
  });
});

describe('typo suggestions compare bounded prefixes', () => {
  it('names the nearest of 300 codes of 5,000 characters to an asked code of 200', async () => {
    const dir = await tempDir();
    const code = (i: number) => `x${i}${'a'.repeat(4_990)}`;
    const notifications = Array.from({ length: 300 }, (_, i) => ({
      id: `ntf_${i}`,
      createdAt: 1,
      type: 'system',
      code: code(i),
      title: 't',
      body: '',
    }));
    await writeFile(join(dir, 'state.json'), JSON.stringify({ notifications }));
    const s = await serveProcess(['--load', 'state.json', '--token', 'tok'], { cwd: dir });
    const asked = `x1${'a'.repeat(198)}`;
    const r = await clinadmin(['notifications', 'list', '--code', asked], {
      cwd: dir,
      env: { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: 'tok', CLINADMIN_CONFIG_DIR: join(dir, 'config') },
    });
    s.proc.kill('SIGTERM');
    await s.proc.catch(() => undefined);
    expect(r.stderr).toContain(`no notifications with code "${asked}"; codes here: ${code(1)}, `);
  });
});
