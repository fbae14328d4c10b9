import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

// `clinadmin help TOPIC`: pages about what is not a command. The environment page is held to the
// variables the code reads, so a new one cannot go unlisted.

const src = fileURLToPath(new URL('../../src', import.meta.url));
const bin = fileURLToPath(new URL('../../bin', import.meta.url));

/** Every environment variable the source and the bin scripts read by name. */
async function variablesRead(): Promise<string[]> {
  const names = new Set<string>();
  for (const dir of [src, bin]) {
    for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.(ts|cjs)$/.test(entry.name)) continue;
      const text = await readFile(join(entry.parentPath, entry.name), 'utf8');
      for (const m of text.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)) names.add(m[1]);
      // resolve.ts reads CLINADMIN_* settings through pick(flag, 'NAME', stored).
      for (const m of text.matchAll(/pick\([^,]+, '([A-Z][A-Z0-9_]+)'/g)) names.add(m[1]);
      if (/\btmpdir\(\)/.test(text)) names.add('TMPDIR');
    }
  }
  return [...names].sort();
}

describe('clinadmin help TOPIC', () => {
  it('environment names every variable clinadmin reads', async () => {
    const r = await runCli(['help', 'environment']);
    expect(r.code, r.stderr).toBe(0);
    const read = await variablesRead();
    expect(read).toEqual(expect.arrayContaining(['CLINADMIN_BASE_URL', 'CLINADMIN_TOKEN', 'NO_COLOR', 'TMPDIR']));
    expect(read.filter((name) => !new RegExp(`\\b${name}\\b`).test(r.stdout))).toEqual([]);
  });

  it('exit-codes gives the codes the program help gives, and the program help lists the topics', async () => {
    const r = await runCli(['help', 'exit-codes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Exit codes:\n {2}0 {4}success\n/);
    const top = await runCli(['--help']);
    expect(top.stdout).toContain(r.stdout.trimEnd());
    for (const topic of ['csv', 'environment', 'exit-codes'])
      expect(top.stdout).toMatch(new RegExp(`^ {2}${topic} +\\S`, 'm'));
    expect((await runCli(['help', 'enviroment'])).stderr).toContain('hint: did you mean environment?');
  });
});
