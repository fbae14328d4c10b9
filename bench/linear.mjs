// The linear-input rows (issue #59): each reader added for HL7, FHIR warnings, batteries, typo guesses and
// sandbox capture, at two sizes side by side, as seconds and peak memory per MB of input. A row is flat
// (ratio near 1) when the reader is linear; a quadratic one grows with the size (4 times the input, about
// 4 times the cost per MB).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listening } from '../scripts/listening.mjs';

const BARE = fileURLToPath(new URL('bare-server.mjs', import.meta.url));

const MSH = (type) => `MSH|^~\\&|L||||20261120||MFN^${type}^MFN_${type}|1|P|2.5.1`;
const MB = 2 ** 20;

/** An HL7 file of one observation with `n` repetitions of one RFR (each a warning naming its repetition). */
const rfr = (n) =>
  [
    MSH('M08'),
    'MFE|MAD|1||1|CWE',
    'OM1|1|718-7^Hemoglobin^LN|NM',
    `OM2|1|g/dL^^UCUM||||${Array.from({ length: n }, () => '13.5&17.5^M').join('~')}`,
  ].join('\r');

/** An ObservationDefinition with `n` qualifiedIntervals (each a warning naming its interval). */
const intervals = (n) =>
  JSON.stringify({
    resourceType: 'ObservationDefinition',
    code: { text: 'Potassium' },
    permittedDataType: ['Quantity'],
    quantitativeDetails: { unit: { coding: [{ system: 'http://unitsofmeasure.org', code: 'mmol/L' }] } },
    qualifiedInterval: Array.from({ length: n }, () => ({
      category: 'reference',
      range: { low: { value: 1 }, high: { value: 2 } },
      gender: 'male',
    })),
  });

/** One observation listed in `n` M10 batteries. */
function batteries(n) {
  const lines = [MSH('M08'), 'MFE|MAD|1||1|CWE', 'OM1|1|718-7^Hemoglobin^LN|NM|||x', MSH('M10')];
  for (let i = 0; i < n; i++) lines.push(`MFE|MAD|${i}||B${i}|CWE`, `OM1|${i}|B${i}^B${i}^L`, `OM5|${i}|718-7^Hb^LN`);
  return lines.join('\r');
}

/** A master file of `n` observations, each with a unit, two ranges and a description: HL7 parsing alone. */
function compendium(n) {
  const lines = [MSH('M08')];
  for (let i = 1; i <= n; i++)
    lines.push(
      `MFE|MAD|${i}||C${i}^Observation ${i}^L|CWE`,
      `OM1|${i}|C${i}^Observation ${i}^L|NM|||Observation number ${i}, serum`,
      `OM2|${i}|mmol/L^^UCUM|||| 1.0&2.0^M~1.5&2.5^F|0.5&5.0`.replace(' ', ''),
    );
  return lines.join('\r');
}

export async function linearSection({ median, record, work, BIN, RUNS, log, env, NODE }) {
  /** Seconds and MB of peak memory per MB of `text`, the medians of RUNS runs of `args` on its file. */
  const perMb = (name, text, args, extraEnv = {}) => {
    const file = join(work, name);
    writeFileSync(file, text);
    const mb = Buffer.byteLength(text) / MB;
    const runs = Array.from({ length: RUNS }, () =>
      measured(NODE, [BIN, ...args(file)], { ...env, ...extraEnv }, work),
    );
    return { mb, s: median(runs.map((r) => r.ms)) / 1000 / mb, rss: median(runs.map((r) => r.rss)) / MB / mb };
  };
  const row = (what, small, big) => {
    const show = (x) => `${x.s.toFixed(2)} s/MB, ${x.rss.toFixed(0)} MB/MB at ${x.mb.toFixed(2)} MB`;
    log(`linear: ${what}: ${show(small)} vs ${show(big)}`);
    record(
      `linear: ${what}, seconds per MB at 4x the input / at 1x`,
      `${show(big)} vs ${show(small)}`,
      big.s / small.s,
      2,
      '<=',
    );
    record(
      `linear: ${what}, peak memory per MB at 4x the input / at 1x`,
      `${show(big)} vs ${show(small)}`,
      big.rss / small.rss,
      2,
      '<=',
    );
  };
  const lint =
    (extra = []) =>
    (file) => ['measures', 'lint', file, '-o', 'json', ...extra];
  // Each file named by its format: a .hl7 file is read as HL7 whatever it holds.
  for (const [what, make, n, name, args] of [
    ['HL7 RFR repetitions, lint', rfr, 20_000, 'rfr.hl7', lint(['--test', 't'])],
    ['FHIR qualifiedIntervals, lint', intervals, 4_000, 'intervals.json', lint(['--test', 't'])],
    ['HL7 M10 batteries of one member, lint', batteries, 40_000, 'batteries.hl7', lint()],
    ['HL7 master file parsing, lint', compendium, 10_000, 'compendium.hl7', lint(['--test', 't'])],
  ])
    row(what, perMb(`1-${name}`, make(n), args), perMb(`4-${name}`, make(4 * n), args));

  // Typo guesses: notifications with long codes, a long asked code that none has (the guesses are the work).
  const notes = (n) => {
    const code = (i) => `x${i}${'a'.repeat(4_990)}`;
    return Array.from({ length: n }, (_, i) => ({
      id: `ntf_${i}`,
      createdAt: 1,
      type: 'system',
      code: code(i),
      title: 't',
      body: '',
    }));
  };
  const guesses = async (n) => {
    const text = JSON.stringify(notes(n));
    const server = await bare(NODE, env, join(work, `notes-${n}.json`), text);
    try {
      const asked = ['notifications', 'list', '--code', `x1${'a'.repeat(198)}`];
      return perMb(`notes-${n}-input.json`, text, () => asked, {
        CLINADMIN_BASE_URL: server.url,
        CLINADMIN_TOKEN: 'tok',
      });
    } finally {
      await server.stop();
    }
  };
  row('typo guesses over notification codes, list', await guesses(200), await guesses(800));

  // Capture: a list of `{}` records, refused at the first; the rest never read whole.
  const capture = async (records) => {
    const text = `[${Array.from({ length: records }, () => '{}').join(',')}]`;
    const server = await bare(NODE, env, join(work, `capture-${records}.json`), text);
    try {
      const argv = [BIN, 'sandbox', 'capture', '--out', join(work, 'capture.json')];
      const e = { ...env, CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: 'tok' };
      const mb = text.length / MB;
      const runs = Array.from({ length: RUNS }, () => measured(NODE, argv, e, work, 2));
      return { mb, s: median(runs.map((r) => r.ms)) / 1000 / mb, rss: median(runs.map((r) => r.rss)) / MB / mb };
    } finally {
      await server.stop();
    }
  };
  const [small, big] = [await capture(1 << 18), await capture(1 << 20)];
  const total = (x) => `${(x.s * x.mb).toFixed(2)} s at ${x.mb.toFixed(1)} MB`;
  log(`linear: capture refusal: ${total(small)} vs ${total(big)}`);
  // Refused at the first record, a capture takes the same time whatever follows: a ratio near 1 in total.
  record(
    'linear: sandbox capture refusing a list of {} records, seconds at 4x the input / at 1x',
    `${total(big)} vs ${total(small)}`,
    (big.s * big.mb) / (small.s * small.mb),
    2,
    '<=',
  );
}

/** bench/bare-server.mjs answering `text` (written to `file`), in a process of its own. */
async function bare(node, env, file, text) {
  writeFileSync(file, text);
  const proc = spawn(node, [BARE, `@${file}`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await listening(proc, 'bare-server');
  return {
    url,
    stop: async () => {
      proc.kill('SIGTERM');
      if (proc.exitCode === null) await new Promise((r) => proc.once('exit', r));
    },
  };
}

/**
 * One run's wall time and peak RSS (`/usr/bin/time -o`), its output let go: a lint of 20,000 warnings writes
 * more than a pipe's buffer holds. `status` is the exit code it must end with.
 */
function measured(node, argv, env, work, status = 0) {
  const out = join(work, 'time.txt');
  const t = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', '-o', out, node, ...argv], { env, stdio: 'ignore' });
  const ms = performance.now() - t;
  if (r.status !== status) throw new Error(`${argv.join(' ')} exited ${r.status}, not ${status}`);
  return { ms, rss: Number(readFileSync(out, 'utf8').trim().split('\n').pop()) * 1024 };
}
