// Every export under src/ is used somewhere else (src/, test/, scripts/, bench/, bin/): one used only in its
// own file is not exported, so what a module offers is what others use. A name counts as used where another
// file holds it as a word, which errs towards keeping an export. `--list` prints what it finds and exits 0.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => /^(src|test|scripts|bench|bin)\/.*\.(ts|mjs|cjs|js)$/.test(f));
const text = new Map();
for (const f of files) {
  try {
    text.set(f, readFileSync(f, 'utf8'));
  } catch {
    // deleted in the work tree
  }
}
const KINDS = String.raw`(?:const|let|function\*?|class|type|interface|enum|abstract\s+class)`;
const DECLARED = new RegExp(String.raw`^export\s+(?:declare\s+)?(?:async\s+)?${KINDS}\s+([A-Za-z_$][\w$]*)`, 'gm');
const LISTED = /^export\s+(?:type\s+)?\{([^}]*)\}(?!\s*from)/gm;
const unused = [];
for (const [file, source] of text) {
  if (!file.startsWith('src/')) continue;
  const names = [...source.matchAll(DECLARED)].map((m) => m[1]);
  for (const m of source.matchAll(LISTED))
    for (const part of m[1].split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.replace(/^type\s+/, '');
      if (name) names.push(name);
    }
  for (const name of names) {
    const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
    let used = false;
    for (const [other, body] of text) if (other !== file && word.test(body)) used = true;
    if (!used) unused.push(`${file}: ${name} is exported but used only in its own file: drop the export`);
  }
}
for (const line of unused) console.error(line);
if (unused.length > 0 && !process.argv.includes('--list')) process.exitCode = 1;
