// No line over 120 characters in the files people read: the formatter wraps code, not strings or prose
// in comments, so this catches what it leaves. Generated files (completions/, dist/) are left out.
// And no file under src/ over 300 lines (the house rule: a file that grows past it is split by what it holds).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX = 120;
const MAX_SRC_LINES = 300;
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.(ts|mjs|cjs|js|sh|json|jsonc|yml)$/.test(f) || f === '.ci/run')
  .filter((f) => !/^(completions|dist)\/|package-lock\.json$|^openapi\.json$/.test(f));
let long = 0;
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // deleted in the work tree
  }
  const lines = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
  if (file.startsWith('src/') && lines > MAX_SRC_LINES) {
    long++;
    console.error(`${file}: ${lines} lines (at most ${MAX_SRC_LINES} under src/)`);
  }
  text.split('\n').forEach((line, i) => {
    if (line.length > MAX) {
      long++;
      console.error(`${file}:${i + 1}: ${line.length} characters (at most ${MAX})`);
    }
  });
}
if (long > 0) process.exitCode = 1;
