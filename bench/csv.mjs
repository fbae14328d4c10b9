// The spreadsheet row (issue #30): importing a CSV catalog of 100,000 rows against one of 10,000, peak
// memory side by side in one run, beside the same measures imported as JSON. The sheets are written by
// `clinadmin measures export --format csv` from a server holding the measures, as a lab would get one.
import { execFileSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measures } from './data.mjs';

const MiB = (b) => `${(b / 2 ** 20).toFixed(0)} MiB`;

export async function csvSection({ start, serveFile, median, record, peakRss, work, BIN, TOKEN, NODE, env, log }) {
  // The bench measures have three ranges each (two reference, one critical): three rows a measure.
  const sizes = { small: Math.ceil(10_000 / 3), big: Math.ceil(100_000 / 3) };
  const files = {};
  for (const [key, n] of Object.entries(sizes)) {
    const s = await start('clinadmin', { data: serveFile(n, `csv-${key}`) });
    files[key] = join(work, `catalog-${key}.csv`);
    writeFileSync(
      files[key],
      execFileSync(NODE, [BIN, 'measures', 'export', '--format', 'csv'], {
        env: { ...env, CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN },
        maxBuffer: 1 << 30,
      }),
    );
    files[`${key}Json`] = join(work, `catalog-${key}.json`);
    writeFileSync(
      files[`${key}Json`],
      JSON.stringify(measures(n, 'csv').map(({ id: _i, createdBy: _b, createdAt: _c, ...m }) => m)),
    );
    await s.stop();
  }
  const rows = (f) => execFileSync('wc', ['-l', f], { encoding: 'utf8' }).trim().split(' ')[0] - 1;
  log(`csv: sheets of ${rows(files.small)} and ${rows(files.big)} rows (${MiB(statSync(files.big).size)})`);
  // Each import into an empty server; three alternated runs of each, the median taken (memory peaks move
  // with when V8 collects, by a few MB from run to run).
  const peaks = { small: [], big: [], smallJson: [], bigJson: [] };
  for (let i = 0; i < 3; i++) {
    for (const key of Object.keys(peaks)) {
      const s = await start('clinadmin', { data: join(work, `csv-empty-${key}-${i}.json`) });
      peaks[key].push(
        peakRss([BIN, 'measures', 'import', files[key]], { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN }),
      );
      await s.stop();
    }
  }
  const [big, small, bigJson, smallJson] = ['big', 'small', 'bigJson', 'smallJson'].map((k) => median(peaks[k]));
  record(
    'spreadsheet: import peak RSS, a CSV of 100,000 rows / of 10,000 rows',
    `${MiB(big)} vs ${MiB(small)} (the same measures as JSON: ${MiB(bigJson)} vs ${MiB(smallJson)}, ` +
      `${(bigJson / smallJson).toFixed(2)})`,
    big / small,
    1.5,
    '<=',
  );
}
