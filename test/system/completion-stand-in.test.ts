// Covers: completions/ src/commands/completion-scripts.ts
import { chmod, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { terminal } from '../helpers/terminal.js';
import { tempDir } from '../helpers/tmp.js';

// The shipped scripts treat every candidate as data, whatever `__complete` prints: here a stand-in
// clinadmin (an older or broken one) prints command substitutions, backticks, quotes, OSC title
// sequences, C1 bytes and a very long line. No shell runs any of it, and no escape reaches the terminal.

const completions = fileURLToPath(new URL('../../completions', import.meta.url));

/** A folder with a stand-in `clinadmin` that prints hostile candidates, each planting a marker if run. */
async function standIn() {
  const dir = await tempDir();
  const lines = [
    'msr_ok\tPlain',
    `msr_$(touch ${dir}/marker1)\tsub`,
    `msr_\`touch ${dir}/marker2\`\tback`,
    `msr_q'";touch ${dir}/marker3\tquote`,
    'msr_osc\u001b]0;PWNED\u0007\tosc',
    'msr_name\tTitle \u001b]2;PWNED\u001b\\ x',
    'msr_c1\u009b2J\tcsi',
    `msr_${'x'.repeat(5000)}\tlong`,
  ];
  const script = `#!/bin/sh\ncat <<'END'\n${lines.join('\n')}\nEND\n`;
  await writeFile(join(dir, 'clinadmin'), script);
  await chmod(join(dir, 'clinadmin'), 0o755);
  return { dir, path: `${dir}:${process.env.PATH}` };
}

const markers = async (dir: string) => (await readdir(dir)).filter((f) => f.startsWith('marker'));

describe('completion treats what __complete prints as data', () => {
  it('bash offers no candidate with a control character and runs nothing', async () => {
    const { dir, path } = await standIn();
    const script =
      `source ${join(completions, 'clinadmin.bash')}; COMP_WORDS=(clinadmin measures show msr_); ` +
      `COMP_CWORD=3; _clinadmin; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = await execa('bash', ['--norc', '-c', script], { env: { PATH: path }, cwd: dir, reject: false });
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(r.stdout.split('\n').every((l) => l.length <= 512)).toBe(true);
    expect(await markers(dir)).toEqual([]);
  });

  it('fish offers only lines without a control character, and runs nothing', async () => {
    const { dir, path } = await standIn();
    const script = `source ${join(completions, 'clinadmin.fish')}; complete -C 'clinadmin measures show msr_'`;
    const r = await execa('fish', ['--no-config', '-c', script], {
      env: { PATH: path, HOME: dir },
      cwd: dir,
      reject: false,
    });
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(r.stdout.split('\n').every((l) => l.length <= 512)).toBe(true);
    expect(r.stdout.split('\n')).toContain('msr_ok\tPlain');
    expect(await markers(dir)).toEqual([]);
  });

  it('zsh at a terminal shows the plain ids, keeps its title, and runs nothing', async () => {
    const { dir, path } = await standIn();
    const { screen, title, type } = await terminal(120, { PATH: path, ZDOTDIR: dir, HOME: dir }, 30, {
      shell: ['zsh', '-f'],
      cwd: dir,
    });
    const before = await title();
    await type(
      `autoload -Uz compinit && compinit -u -D && source ${join(completions, '_clinadmin')} && echo READY`,
      'Enter',
    );
    await expect.poll(screen, { timeout: 10_000 }).toMatch(/^READY$/m);
    await type('-l', 'clinadmin measures show msr_');
    await type('Tab');
    await expect.poll(screen, { timeout: 10_000 }).toMatch(/msr_ok +-- Plain/);
    expect(await screen()).toMatch(/msr_name +-- Title \?\]2;PWNED\?/);
    expect(await title()).toBe(before);
    expect(await title()).not.toContain('PWNED');
    expect(await markers(dir)).toEqual([]);
  });
});
