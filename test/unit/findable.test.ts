// Covers: scripts/tests-for.mjs vitest.config.ts
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The convention of docs/contributing.md ("Finding a file's tests"): every test file opens with `// Covers:`
// lines naming, from the repo root, the files and folders (ending in `/`) it tests; every src file is named by
// one, itself or through a folder holding it, so a file's tests are found from the file (npm run tests-for).
// Type declarations of a dependency's API hold nothing a test could run.
const UNTESTABLE = 'src/types/';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const at = (path: string) => join(ROOT, path);
// The script reads its arguments from where npm was started (INIT_CWD): here, the root.
const SCRIPT = { cwd: ROOT, env: { ...process.env, INIT_CWD: ROOT }, encoding: 'utf8' } as const;

const filesUnder = (folder: string, ending: string) =>
  readdirSync(at(folder), { recursive: true, encoding: 'utf8' })
    .map((f) => `${folder}/${f.replaceAll('\\', '/')}`)
    .filter((f) => f.endsWith(ending))
    .sort();

const TESTS = filesUnder('test', '.test.ts');
// Read by the script's one reader of the headers, so the check and the lookup never disagree.
const COVERS = new Map<string, string[]>(
  Object.entries(JSON.parse(execFileSync('node', ['scripts/tests-for.mjs', '--headers'], SCRIPT))),
);
const names = (entry: string, file: string) => entry === file || (entry.endsWith('/') && file.startsWith(entry));

/** What is wrong with one entry of a header, or undefined when it names a file or folder that is there. */
function fault(entry: string): string | undefined {
  if (entry.startsWith('/') || entry.startsWith('./') || entry.split('/').includes('..'))
    return 'not a path from the repo root';
  if (entry === 'src/') return 'all of src/ names no file in particular';
  if (!existsSync(at(entry))) return 'no such file or folder';
  const folder = statSync(at(entry)).isDirectory();
  if (folder !== entry.endsWith('/')) return folder ? 'a folder: end it with /' : 'a file: no / at the end';
  return undefined;
}

describe('tests findable from the code they test (// Covers:)', () => {
  it("names in vitest.config.ts's longest-first list only test files that are there", () => {
    // A file renamed but left on the list would start wherever vitest puts it, with no word of why.
    const list = /const LONGEST = \[([^\]]*)\]/.exec(readFileSync(at('vitest.config.ts'), 'utf8'))?.[1] ?? '';
    const listed = [...list.matchAll(/'([^']+)'/g)].map((m) => `test/${m[1]}.test.ts`);
    expect(listed.length).toBeGreaterThan(10);
    expect(listed.filter((f) => !TESTS.includes(f))).toEqual([]);
  });

  it('every test file opens with a // Covers: line', () => {
    expect(TESTS.length).toBeGreaterThan(100);
    expect([...COVERS.keys()]).toEqual(TESTS);
    const without = TESTS.filter((t) => (COVERS.get(t) ?? []).length === 0);
    expect(without, 'test files that do not open with a // Covers: line').toEqual([]);
  });

  it('every path a header names is a file or folder from the repo root, a folder ending in /', () => {
    const faults = [...COVERS].flatMap(([test, entries]) =>
      entries.flatMap((e) => {
        const why = fault(e);
        return why ? [`${test}: ${e} (${why})`] : [];
      }),
    );
    expect(faults).toEqual([]);
  });

  it('names every src file, itself or through a folder, but the type declarations', () => {
    const entries = [...COVERS.values()].flat();
    const src = filesUnder('src', '.ts').filter((f) => !f.startsWith(UNTESTABLE));
    expect(src.length).toBeGreaterThan(200);
    const uncovered = src.filter((f) => !entries.some((e) => names(e, f)));
    expect(
      uncovered,
      'src files no test names in its // Covers: (write its test, or name it where one runs it)',
    ).toEqual([]);
  });

  it('npm run tests-for lists the tests naming a file or a folder holding it, ready for vitest', () => {
    const testsFor = (...paths: string[]) =>
      execFileSync('node', ['scripts/tests-for.mjs', ...paths], SCRIPT)
        .trim()
        .split('\n');
    const file = 'src/formats/csv/columns.ts';
    const expected = TESTS.filter((t) => COVERS.get(t)?.some((e) => names(e, file)));
    // One header names the file itself, another the folder holding it: both are its tests.
    expect(expected).toEqual(expect.arrayContaining(['test/cli/lab-words.test.ts', 'test/cli/csv.test.ts']));
    expect(testsFor(file)).toEqual(expected);
    expect(testsFor('src/server/store/journal.ts')).toContain('test/unit/store.test.ts');
    // A folder's tests are those naming it, a folder above it, or anything inside it.
    expect(testsFor('src/formats/csv/')).toEqual(
      TESTS.filter((t) => COVERS.get(t)?.some((e) => e.startsWith('src/formats/csv/') || e === 'src/formats/')),
    );
  });

  it('tests-for fails, printing nothing, for a path no header names or that is not there', () => {
    const run = (path: string) => {
      try {
        execFileSync('node', ['scripts/tests-for.mjs', path], { ...SCRIPT, stdio: 'pipe' });
        return { code: 0, stdout: '', stderr: '' };
      } catch (error) {
        const e = error as { status: number; stdout: string; stderr: string };
        return { code: e.status, stdout: e.stdout, stderr: e.stderr };
      }
    };
    // An empty list would make `npx vitest run $(…)` run every test.
    expect(run('src/types/ucum-lhc.d.ts')).toEqual({
      code: 1,
      stdout: '',
      stderr: "tests-for: no test file's // Covers: names src/types/ucum-lhc.d.ts\n",
    });
    expect(run('src/no-such-file.ts')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'tests-for: src/no-such-file.ts: no such file or folder\n',
    });
  });
});
