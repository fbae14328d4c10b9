// Covers: src/commands/help/ src/cli.ts src/formats/catalog-formats.ts src/output/format-names.ts
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { TOKEN, testServer } from '../helpers/server.js';
import { commandPaths } from '../helpers/tree.js';

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

  it('output lists exactly the formats -o takes', async () => {
    const page = (await runCli(['help', 'output'])).stdout;
    const listed = [...page.matchAll(/^ {2}-o (\w+)/gm)].map((m) => m[1]);
    const help = (await runCli(['measures', 'list', '--help'])).stdout.replace(/\s+/g, ' ');
    const choices = /\(choices: ([^)]*)\)/
      .exec(help)![1]
      .split(', ')
      .map((c) => c.replace(/"/g, ''));
    expect(listed.sort()).toEqual(choices.sort());
  });

  it('speaks of no version but the one there is, and the catalogs page names every export format', async () => {
    const { version } = JSON.parse(await readFile(join(src, '..', 'package.json'), 'utf8')) as { version: string };
    for (const topic of ['ranges', 'input', 'output', 'csv', 'exit-codes', 'environment']) {
      const page = (await runCli(['help', topic])).stdout;
      // "before 0.3" in a 0.1.0 release spoke of a version that never was.
      for (const m of page.matchAll(/\b(?:before|since|after|until) v?(\d+\.\d+(?:\.\d+)?)\b/g))
        expect(m[1], topic).toBe(version);
    }
    const help = (await runCli(['measures', 'export', '--help'])).stdout;
    // Help is laid out to 80 columns here: the choices may go on over lines.
    const choices = /--format <format>[\s\S]*?\(choices: ([^)]*?),\s+default/.exec(help)![1].split(/,\s+/);
    const catalogs = await readFile(join(src, '..', 'docs', 'catalogs.md'), 'utf8');
    const synopsis = /`clinadmin measures export \[--format ([^\]]+)\]/.exec(catalogs)![1].split('|');
    expect(synopsis.sort()).toEqual(choices.map((c) => c.slice(1, -1)).sort());
  });

  it('ranges: each form it shows is taken as it says, and the refused panic forms are refused', async () => {
    const page = (await runCli(['help', 'ranges'])).stdout;
    const server = await testServer();
    const env = { CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: TOKEN };
    const create = (name: string, ...ranges: string[]) =>
      runCli(
        ['measures', 'create', '--test', 'tst_t', '--name', name, '--type', 'numeric', '--unit', 'mmol/L', ...ranges],
        {
          env,
        },
      );
    const forms = ['3.5-5.1', '3.5..5.1', '3.5..', '..5.1', '3.5-5.1 sex=male age=18-65', '3.5-5.1 age=0-24h'];
    for (const form of [
      ...forms,
      '3.5-5.1 age=0-28d',
      '3.5-5.1 age=29d-11mo',
      '3.5-5.1 age=1-17y',
      '3.5-5.1 age=12mo-1y',
    ]) {
      for (const word of form.split(' ')) expect(page).toContain(word);
      expect((await create(`r ${form}`, '--reference-range', form)).code, form).toBe(0);
    }
    // Critical limits (FHIR R4's critical range): below min or above max is critical.
    const panic = {
      '<2.5': { min: 2.5, sex: 'all' },
      '>6.5': { max: 6.5, sex: 'all' },
      '2.5-6.5': { min: 2.5, max: 6.5, sex: 'all' },
    };
    for (const [form, limits] of Object.entries(panic)) {
      expect(page).toContain(`"${form}"`);
      const r = await create(`p ${form}`, '--panic-range', form, '-o', 'json');
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).panicRanges).toEqual([limits]);
    }
    for (const form of ['..2.5', '6.5..']) {
      expect(page).toContain(form);
      expect((await create(`x ${form}`, '--panic-range', form)).code, form).toBe(2);
    }
  });

  it('input and the program help name every topic, and each topic answers', async () => {
    const top = (await runCli(['--help'])).stdout;
    for (const topic of ['ranges', 'input', 'output', 'csv', 'exit-codes', 'environment']) {
      expect(top).toMatch(new RegExp(`^ {2}${topic} +\\S`, 'm'));
      const r = await runCli(['help', topic]);
      expect(r.code, topic).toBe(0);
      expect(r.stdout.length, topic).toBeGreaterThan(200);
    }
    expect((await runCli(['help', 'input'])).stdout).toContain('nothing is sent (exit 2)');
  });
});

describe('help of every command', () => {
  it('gives every command a description and at least one example in --help', async () => {
    // In process: the help is commander's over the same tree the binary builds (one binary run checks --help).
    const paths = commandPaths().map((c) => c.words);
    expect(paths.length).toBeGreaterThan(30);
    for (const p of paths) {
      const r = await runCli([...p, '--help']);
      expect(r.code, p.join(' ')).toBe(0);
      expect(r.stdout, p.join(' ')).toMatch(/^Usage: clinadmin/);
      expect(r.stdout.split('\n')[2].trim().length, `${p.join(' ')} has a description`).toBeGreaterThan(10);
      expect(r.stdout, `${p.join(' ')} has an example`).toMatch(/Examples:\n\s+\$ clinadmin /);
    }
  });
});
