// Covers: completions/ src/commands/completion.ts src/commands/completion-run.ts src/commands/completion-scripts.ts
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { clinadmin } from '../helpers/bin.js';
import { HOSTILE_IDS, hostileServer, listOfIds } from '../helpers/hostile.js';
import { binOnPath, loggedIn } from '../helpers/logged-in.js';
import { terminal } from '../helpers/terminal.js';
import { tempDir } from '../helpers/tmp.js';

const completions = fileURLToPath(new URL('../../completions', import.meta.url));

describe('fish completion', () => {
  it('completes a command, a flag, a help topic and a live id with its name', async () => {
    const { env } = await loggedIn();
    const path = `${await binOnPath()}:${process.env.PATH}`;
    /** What fish offers, a line each: the candidate, then a tab and its description when it has one. */
    const described = async (line: string) => {
      const script = `source ${join(completions, 'clinadmin.fish')}; complete -C ${JSON.stringify(line)}`;
      const r = await execa('fish', ['--no-config', '-c', script], {
        env: { ...env, PATH: path },
        reject: false,
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
      });
      expect(r.stderr).toBe('');
      return r.stdout.split('\n');
    };
    const complete = async (line: string) => (await described(line)).map((l) => l.split('\t')[0]);
    expect(await complete('clinadmin mea')).toEqual(['measures']);
    expect(await complete('clinadmin coverages create --ref-')).toEqual(['--ref-type']);
    expect((await complete('clinadmin measures show msr_h')).sort()).toEqual(['msr_hcg', 'msr_hgb']);
    // Each id with what it is, as gh and kubectl show it.
    const ids = await described('clinadmin measures show msr_');
    expect(ids).toContain('msr_k\tPotassium');
    expect(ids).toContain('msr_hgb\tHemoglobin');
    // The help topics, each with its summary, beside the commands.
    expect(await described('clinadmin help r')).toEqual([
      'ranges\tthe short form of a range, critical limits, and changing one range',
    ]);
    expect(await complete('clinadmin help e')).toEqual(['environment', 'exit-codes']);
    // fish sorts what it offers.
    expect((await complete('clinadmin coverages create --ref-type ')).sort()).toEqual([
      'inventory-stock-configurations',
      'services',
    ]);
    expect(await complete('clinadmin measures import package.j')).toEqual(['package.json']);
    expect(await complete('clinadmin measures create --file tsconfig.j')).toEqual(['tsconfig.json']);
  });
});

describe('bash completion', () => {
  it('offers help topics, and ids plain: bash has no descriptions, so none is added to a candidate', async () => {
    const { env } = await loggedIn();
    const complete = async (words: string[]) => {
      const script =
        `source ${join(completions, 'clinadmin.bash')}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); ` +
        `COMP_CWORD=${words.length - 1}; _clinadmin; printf '%s\\n' "\${COMPREPLY[@]}"`;
      const r = await execa('bash', ['--norc', '-c', script], {
        env: { ...env, PATH: `${await binOnPath()}:${process.env.PATH}` },
        reject: false,
      });
      expect(r.stderr).toBe('');
      return r.stdout.split('\n');
    };
    expect(await complete(['clinadmin', 'help', 'r'])).toEqual(['ranges']);
    expect((await complete(['clinadmin', 'help', 'e'])).sort()).toEqual(['environment', 'exit-codes']);
    expect(await complete(['clinadmin', 'measures', 'show', 'msr_k'])).toEqual(['msr_k']);
  });
});

/** An interactive zsh, as a person has it: completion runs only inside zsh's line editor. */
const zsh = ['zsh', '-f'];

describe('zsh completion', () => {
  it('completes a command, a flag and a live id at a terminal', async () => {
    const { env, dir } = await loggedIn();
    const path = `${await binOnPath()}:${process.env.PATH}`;
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const { screen, type, clear, interrupt } = await terminal(120, { ...env, PATH: path, ZDOTDIR: dir }, 30, {
      shell: zsh,
      cwd: root,
    });
    /** Types a line, presses Tab, and waits for the screen to show `expected`; then clears the line. */
    const tab = async (line: string, expected: RegExp) => {
      await type('-l', line);
      await type('Tab');
      await expect.poll(screen, { timeout: 10_000 }).toMatch(expected);
      await interrupt();
      await clear();
    };

    await type(
      `autoload -Uz compinit && compinit -u -D && source ${join(completions, '_clinadmin')} && echo READY`,
      'Enter',
    );
    await expect.poll(screen, { timeout: 10_000 }).toMatch(/^READY$/m);
    await clear();
    await tab('clinadmin mea', /clinadmin measures *$/m);
    await tab('clinadmin coverages create --ref-', /clinadmin coverages create --ref-type *$/m);
    // Two ids match: zsh lists both below the line, each with its name.
    await tab('clinadmin measures show msr_h', /msr_hcg +-- .*hCG[\s\S]*msr_hgb +-- Hemoglobin|msr_hgb +-- Hemoglobin/);
    await tab('clinadmin measures show msr_', /msr_k +-- Potassium/);
    await tab('clinadmin help ran', /clinadmin help ranges *$/m);
    await tab('clinadmin help e', /exit-codes +-- what each exit code means/);
    // A value from the option's fixed set, and a file where a file is expected.
    await tab('clinadmin coverages create --payment-method pre', /--payment-method prepaid *$/m);
    await tab('clinadmin measures import package.j', /measures import package\.json *$/m);
  });
});

/**
 * What fish offers at TAB after `clinadmin measures show msr_`, with the CLI pointed at `url`, run in `cwd`
 * (an empty folder, so that a planted `touch` would show) with a HOME of its own.
 */
async function fishComplete(url: string, cwd: string) {
  const script = `source ${join(completions, 'clinadmin.fish')}; complete -C 'clinadmin measures show msr_'`;
  return execa('fish', ['--no-config', '-c', script], {
    cwd,
    env: {
      PATH: `${await binOnPath()}:${process.env.PATH}`,
      HOME: await tempDir(),
      CLINADMIN_BASE_URL: url,
      CLINADMIN_TOKEN: 'tok-hostile-1234',
    },
    reject: false,
  });
}

/**
 * A server whose ids would run commands or move the cursor: at TAB no command runs, no file appears, and
 * only the plain ids are offered. Each shell runs in an empty folder so a planted `touch` would show.
 */
describe('completion with ids from a hostile server', () => {
  it('fish runs nothing and offers only the plain ids', async () => {
    const h = await hostileServer(listOfIds(HOSTILE_IDS));
    const cwd = await tempDir();
    const r = await fishComplete(h.url, cwd);
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n').sort()).toEqual(['msr_ok1\tx', 'msr_ok2\tx']);
    expect(await readdir(cwd)).toEqual([]);
    // Ids and their names come from one request.
    expect(h.seen.filter((s) => s.url === '/diagnostic-measures')).toHaveLength(1);
  });

  it('fish shows a hostile name as text: nothing in it runs or reaches the terminal raw', async () => {
    const h = await hostileServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([{ id: 'msr_ok1', name: '$(touch OWNED) `touch OWNED2`\u001b]0;t\u0007\tTab' }]));
    });
    const cwd = await tempDir();
    const r = await fishComplete(h.url, cwd);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('msr_ok1\t$(touch OWNED) `touch OWNED2`\\u001b]0;t\\u0007 Tab');
    expect(await readdir(cwd)).toEqual([]);
  });

  it('zsh, installed in $fpath as docs/connecting.md says, completes on the first TAB and runs nothing', async () => {
    const h = await hostileServer(listOfIds(HOSTILE_IDS));
    const cwd = await tempDir();
    const functions = await tempDir();
    const script = await clinadmin(['completion', 'zsh']);
    await writeFile(join(functions, '_clinadmin'), `${script.stdout}\n`);
    const shellEnv = {
      PATH: `${await binOnPath()}:${process.env.PATH}`,
      HOME: await tempDir(),
      ZDOTDIR: await tempDir(),
      CLINADMIN_BASE_URL: h.url,
      CLINADMIN_TOKEN: 'tok-hostile-1234',
    };
    const { screen, type, clear } = await terminal(120, shellEnv, 30, { shell: zsh, cwd });
    await type(`fpath=(${functions} $fpath); autoload -Uz compinit && compinit -u -D && echo READY`, 'Enter');
    await expect.poll(screen, { timeout: 10_000 }).toMatch(/^READY$/m);
    await clear();
    // The first TAB inserts the common part of the two plain ids (zsh lists them only at the next TAB).
    await type('-l', 'clinadmin measures show msr_');
    await type('Tab');
    await expect.poll(screen, { timeout: 10_000 }).toMatch(/clinadmin measures show msr_ok *$/m);
    await type('Tab');
    // zsh lists the two together, as they share their name.
    await expect.poll(screen, { timeout: 10_000 }).toMatch(/msr_ok1\s+msr_ok2\s+-- x|msr_ok2\s+msr_ok1\s+-- x/);
    const shown = await screen();
    expect(shown).not.toMatch(/touch|OWNED|msr_x/);
    await type('C-c');
    expect(await readdir(cwd)).toEqual([]);
    expect(h.seen.some((s) => s.url === '/diagnostic-measures')).toBe(true);
  });
});
