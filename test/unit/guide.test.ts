// Covers: docs/contributing.md package.json vitest.config.ts
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The contributor's command block is run by people as written: each npm script, project, file and test
// name it gives must be one that exists, or the first command a newcomer copies fails.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const block = read('docs/contributing.md').split('## Commands')[1]?.split('```text\n')[1]?.split('```')[0] ?? '';
const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);

describe("the contributor's command block", () => {
  it('runs only npm scripts that package.json has', () => {
    const named = [...block.matchAll(/npm (?:run(?: -s)? ([\w:-]+)|(test)\b)/g)].map((m) => m[1] ?? m[2]);
    expect(named).toEqual(expect.arrayContaining(['lint', 'test', 'build', 'tests-for', 'test:system']));
    expect(named.filter((s) => !scripts.includes(s))).toEqual([]);
  });

  it('names tiers vitest has, and a test file and test name that are there', () => {
    const config = read('vitest.config.ts');
    const projects = [...block.matchAll(/--project (\w+)/g)].map((m) => m[1]);
    expect(projects.length).toBeGreaterThan(0);
    for (const p of projects) expect(config).toContain(`tier('${p}'`);
    const runs = [...block.matchAll(/npx vitest run (test\/\S+\.test\.ts) -t '([^']+)'/g)];
    expect(runs.length).toBeGreaterThan(0);
    for (const [, file, name] of runs) {
      expect(existsSync(join(ROOT, file)), file).toBe(true);
      expect(read(file)).toContain(`it('${name}`);
    }
  });
});
