// Commit subjects of at most 72 characters, the detail in the body: the house's rule for every commit after
// RULE_FROM, the commit the rule begins after. `node scripts/check-subjects.mjs [BASE]` checks the commits
// after BASE (RULE_FROM by default) up to HEAD; .ci/run runs it. Exit 1 naming each subject that is longer.
import { execFileSync } from 'node:child_process';

const MAX = 72;
const RULE_FROM = '42266e499648a16164bfb46df3d175c3ba5d537f';
const base = process.argv[2] ?? RULE_FROM;
const git = (...args) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const known = (() => {
  try {
    git('cat-file', '-e', `${base}^{commit}`);
    return true;
  } catch {
    return false;
  }
})();
let range = `${base}..HEAD`;
if (!known) {
  // A shallow clone cut below BASE holds only commits after it (BASE is an ancestor of HEAD), so each is checked.
  if (git('rev-parse', '--is-shallow-repository').trim() !== 'true') {
    console.error(`check-subjects: ${base} is not a commit of this repository`);
    process.exit(2);
  }
  range = 'HEAD';
}
let long = 0;
for (const line of git('log', '--format=%h%x09%s', range).split('\n').filter(Boolean)) {
  const [id, subject] = line.split('\t');
  if ([...subject].length > MAX) {
    long++;
    console.error(`${id}: subject of ${[...subject].length} characters (at most ${MAX}): ${subject.slice(0, 80)}…`);
  }
}
if (long > 0) process.exitCode = 1;
