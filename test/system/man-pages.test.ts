// Covers: scripts/man.mjs docs/man/
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

// The shipped man pages as man(1) renders them: no roff warning, and each page says what its command's
// --help says (the generator reads the same command tree; this checks what a reader gets).
const dir = fileURLToPath(new URL('../../docs/man', import.meta.url));

describe('the man pages', () => {
  it('render without warnings, one a command, with its options as --help lists them', async () => {
    const pages = await readdir(dir);
    expect(pages).toContain('clinadmin.1');
    for (const page of pages) {
      const r = await execa('man', ['--warnings=all', '-l', join(dir, page)], {
        env: { MANWIDTH: '100', MANPAGER: 'cat', PAGER: 'cat', LC_ALL: 'C.UTF-8' },
        reject: false,
      });
      expect(r.exitCode, `${page}: ${r.stderr}`).toBe(0);
      expect(r.stderr, page).toBe('');
      expect(r.stdout, page).toMatch(/^NAME\n/m);
      expect(r.stdout, page).toMatch(/^SYNOPSIS\n/m);
    }
    const man = await execa('man', ['-l', join(dir, 'clinadmin-measures-import.1')], {
      env: { MANWIDTH: '200', MANPAGER: 'cat', LC_ALL: 'C.UTF-8' },
    });
    const help = await runCli(['measures', 'import', '--help']);
    for (const flag of ['--dry-run', '--prune', '--concurrency <n>', '--report <path>', '--format <form>']) {
      expect(help.stdout).toContain(flag);
      expect(man.stdout).toContain(`       ${flag}\n`);
    }
    expect(man.stdout).toContain('$ clinadmin measures import catalog.csv --dry-run');
  });

  it("keeps the header's parts apart at 80 columns, the longest name too (issue 64)", async () => {
    for (const page of await readdir(dir)) {
      const r = await execa('man', ['-l', join(dir, page)], {
        env: { MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat', LC_ALL: 'C.UTF-8' },
      });
      const header = r.stdout.split('\n')[0];
      const title = `${page.replace(/\.1$/, '').toUpperCase()}(1)`;
      expect(header.length, page).toBeLessThanOrEqual(80);
      // NAME(1) at each end, and between them only spaces, or the manual's name with spaces either side.
      expect(header.startsWith(title) && header.endsWith(title), page).toBe(true);
      expect(header.slice(title.length, header.length - title.length), page).toMatch(
        /^( +| {2,}clinadmin manual {2,})$/,
      );
    }
  });
});
