// Covers: src/commands/resource/edit.ts src/commands/resource/edit-run.ts src/commands/resource/round-trip.ts
// Covers: src/commands/resource/update-run.ts
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clinadmin } from '../helpers/bin.js';
import { loggedIn } from '../helpers/logged-in.js';
import { tempDir } from '../helpers/tmp.js';

/** An "editor" for tests: a script that runs a JavaScript change on the file it is given. */
async function editor(change: string): Promise<string> {
  const path = join(await tempDir(), 'edit.sh');
  const js =
    `const fs=require('fs');const f=process.argv[1];let t=fs.readFileSync(f,'utf8');` +
    `${change};fs.writeFileSync(f,t)`;
  await writeFile(path, `#!/bin/sh\nexec node -e ${JSON.stringify(js)} "$1"\n`);
  await chmod(path, 0o755);
  return path;
}

describe('edit and the round trip of a record', () => {
  it('update -f takes back a record from show -o json, sending only what was edited', async () => {
    const { run, dir } = await loggedIn();
    const shown = await run(['measures', 'show', 'msr_k', '-o', 'json']);
    const record = JSON.parse(shown.stdout);
    await writeFile(join(dir, 'k.json'), JSON.stringify({ ...record, description: 'serum or plasma' }, null, 2));
    const r = await run(['measures', 'update', 'msr_k', '-f', join(dir, 'k.json'), '--verbose']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'msr_k', description: 'serum or plasma', test: 'tst_bmp' });
    // The record's own id, test (create-only) and service-set fields were set aside, not sent.
    expect(r.stderr).toMatch(/→ PATCH \S+\/diagnostic-measures\/msr_k/);
    const same = await run(['measures', 'update', 'msr_k', '-f', join(dir, 'k.json')]);
    expect(same.exitCode).toBe(0);
    expect(same.stderr).toBe('nothing to update: measure msr_k is as given; nothing was sent');
    await writeFile(join(dir, 'moved.json'), JSON.stringify({ ...record, test: 'tst_other' }));
    const moved = await run(['measures', 'update', 'msr_k', '-f', join(dir, 'moved.json')]);
    expect(moved.exitCode).toBe(2);
    expect(moved.stderr).toContain('test: test is create-only; it cannot be changed by update');
  });

  it('edit opens the record in $EDITOR and sends only the change, showing it', async () => {
    const { run } = await loggedIn();
    const EDITOR = await editor(`t=t.replace('"unit": "mEq/L"','"unit": "mmol/L"')`);
    const r = await run(['measures', 'edit', 'msr_k', '-o', 'json'], { EDITOR, VISUAL: '' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('~ update msr_k\n    unit: "mEq/L" → "mmol/L"');
    expect(JSON.parse(r.stdout).unit).toBe('mmol/L');
    const none = await run(['measures', 'edit', 'msr_k'], { EDITOR: 'true', VISUAL: '' });
    expect(none.exitCode).toBe(0);
    expect(none.stderr).toBe('no change; nothing was sent');
  });

  it('edit takes an age with its unit, as every input does, and sends the years', async () => {
    const { run } = await loggedIn();
    const EDITOR = await editor(`t=t.replace('"ageMin": 18','"ageMin": "17y"')`);
    const r = await run(['measures', 'edit', 'msr_k', '-o', 'json'], { EDITOR, VISUAL: '' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).referenceRanges[0]).toMatchObject({ id: 'rr_k', ageMin: 17, ageMax: 121 });
    // The refused edit is kept in TMPDIR for the user: this test's own, removed after it.
    const TMPDIR = await tempDir();
    const bad = await run(['measures', 'edit', 'msr_k'], {
      TMPDIR,
      EDITOR: await editor(`t=t.replace('"ageMax": 121','"ageMax": "old"')`),
      VISUAL: '',
    });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('referenceRanges[0].ageMax: "old" is not an age');
  });

  it('keeps an edit that does not parse or breaks a rule, and sends nothing', async () => {
    const { run } = await loggedIn();
    // A kept edit stays in TMPDIR for the user: this test's own, removed after it.
    const TMPDIR = await tempDir();
    const broken = await run(['coverages', 'edit', 'cov_acme_cbc'], {
      EDITOR: await editor(`t=t.replace('{','{,')`),
      TMPDIR,
    });
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr).toMatch(/^error: the edited file is not valid JSON: line 1, column 2/);
    const kept = /hint: your edit is kept in (\S+)/.exec(broken.stderr)?.[1];
    expect(kept?.startsWith(`${TMPDIR}/clinadmin-edit-`)).toBe(true);
    expect(await readFile(kept!, 'utf8')).toMatch(/^\{,/);
    const invalid = await run(['coverages', 'edit', 'cov_acme_cbc'], {
      EDITOR: await editor(`t=t.replace('"amount": 15','"amount": -1')`),
      TMPDIR,
    });
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toMatch(
      /^error: the edited coverage is invalid; nothing was sent\n {2}- amount: must not be negative/,
    );
    const left = await run(['coverages', 'show', 'cov_acme_cbc', '-o', 'json']);
    expect(JSON.parse(left.stdout).amount).toBe(15);
  });
});

describe('the editor gets its file as an argument, as git does (issue 38, finding 9)', () => {
  it('runs nothing a TMPDIR holds, and takes an EDITOR with arguments and quotes', async () => {
    const { env } = await loggedIn();
    const cwd = await tempDir();
    // A temp folder whose name a shell would run, were the path pasted into a command.
    const tmp = join(await tempDir(), '$(touch pwned)`touch pwned2`');
    await mkdir(tmp);
    const bin = await tempDir();
    const args = join(bin, 'args.json');
    // The editor records the arguments it was given, then edits the last one (the file).
    const script = join(bin, 'ed.js');
    await writeFile(
      script,
      `const fs=require('fs');const a=process.argv.slice(2);` +
        `fs.writeFileSync(${JSON.stringify(args)},JSON.stringify(a));` +
        `const f=a[a.length-1];fs.writeFileSync(f,fs.readFileSync(f,'utf8').replace('"mEq/L"','"mmol/L"'))`,
    );
    for (const EDITOR of [
      // A command with arguments, one quoted with a space, as EDITOR="code --wait" is.
      `node ${script} --wait 'two words'`,
      // A shell snippet, as git allows: its $0 is the file.
      `sh -c 'node ${script} --inline "$0"'`,
    ]) {
      const r = await clinadmin(['measures', 'edit', 'msr_k', '-o', 'json'], {
        cwd,
        env: { ...env, EDITOR, VISUAL: '', TMPDIR: tmp },
      });
      expect(r.exitCode, r.stderr).toBe(0);
      const given = JSON.parse(await readFile(args, 'utf8')) as string[];
      expect(given.slice(0, -1)).toEqual(EDITOR.includes('--wait') ? ['--wait', 'two words'] : ['--inline']);
      expect(given.at(-1)?.startsWith(join(tmp, 'clinadmin-edit-'))).toBe(true);
      await writeFile(args, '');
    }
    expect(await readdir(cwd)).toEqual([]);
    expect((await readdir(tmp)).filter((f) => f.startsWith('pwned'))).toEqual([]);
  });
});
