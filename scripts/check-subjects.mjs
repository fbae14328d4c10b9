// Commit subjects of at most 72 characters, the detail in the body (the house's rule for new commits):
// `node scripts/check-subjects.mjs BASE` checks every commit after BASE (a ref or id) up to HEAD, as CI
// runs it over the commits a change adds. Exit 1 naming each subject that is longer.
import { execFileSync } from 'node:child_process';

const MAX = 72;
const base = process.argv[2];
if (!base) {
  console.error('usage: node scripts/check-subjects.mjs BASE (a ref or commit id)');
  process.exit(2);
}
const log = execFileSync('git', ['log', '--format=%h%x09%s', `${base}..HEAD`], { encoding: 'utf8' });
let long = 0;
for (const line of log.split('\n').filter(Boolean)) {
  const [id, subject] = line.split('\t');
  if ([...subject].length > MAX) {
    long++;
    console.error(`${id}: subject of ${[...subject].length} characters (at most ${MAX}): ${subject.slice(0, 80)}…`);
  }
}
if (long > 0) process.exitCode = 1;
