// Covers: bin/clinadmin.cjs package.json
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, clinadmin } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** One line on stderr, and nothing on stdout: no stack trace, no MODULE_NOT_FOUND, no partial output. */
function oneLine(r: { stdout: string; stderr: string; exitCode?: number }): string {
  expect(r.stdout).toBe('');
  expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at |MODULE_NOT_FOUND|SyntaxError|TypeError/);
  return r.stderr.trim();
}

describe('on a Node older than the libraries need', () => {
  // A real Node 20 (end of life), from the npm registry through the same cache script CI uses for 22-26.
  let old: string;
  beforeAll(async () => {
    const r = await execa('bash', [join(root, 'scripts', 'nodes.sh'), 'old']);
    old = r.stdout.trim().split(' ')[1];
    expect((await execa(join(old, 'node'), ['--version'])).stdout).toMatch(/^v20\./);
  }, 300_000);

  it('names the Node it needs and the one it found, in one line, for every command, and exits 1', async () => {
    // A server that counts what reaches it: the check comes before any request.
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.setHeader('content-type', 'application/json').end('[]');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const env = { PATH: `${old}:${process.env.PATH}`, CLINADMIN_BASE_URL: url, CLINADMIN_TOKEN: 'a-token' };
    for (const args of [['--version'], ['--help'], ['measures', 'list'], ['serve', '--port', '0']]) {
      const r = await clinadmin(args, { env });
      expect(r.exitCode, args.join(' ')).toBe(1);
      const line = oneLine(r);
      expect(line).toMatch(/^error: clinadmin needs Node\.js 22 \(22\.22\.2 or later\), 24 \(24\.15 or later\)/);
      expect(line).toContain('or 26 and later');
      expect(line).toContain(`this is Node.js ${(await execa(join(old, 'node'), ['--version'])).stdout}`);
    }
    server.close();
    expect(requests).toBe(0);
  });

  it("names the same floors as package.json's engines", async () => {
    const { engines } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    expect(engines.node).toBe('^22.22.2 || ^24.15 || >=26');
    expect(await readFile(BIN, 'utf8')).toContain(`// engines: ${engines.node}\n`);
  });
});

describe('in a clone that was never built', () => {
  it('says to run npm run build, in one line, instead of a MODULE_NOT_FOUND trace', async () => {
    // The repository's bin/ as a fresh clone has it, with no dist/ beside it.
    const clone = await tempDir();
    await mkdir(join(clone, 'bin'));
    for (const f of ['clinadmin.cjs', 'compile-cache.cjs']) await copyFile(join(root, 'bin', f), join(clone, 'bin', f));
    for (const args of [['--version'], ['measures', 'list'], ['serve']]) {
      const r = await execa('node', [join(clone, 'bin', 'clinadmin.cjs'), ...args], { reject: false });
      expect(r.exitCode, args.join(' ')).toBe(1);
      expect(oneLine(r)).toMatch(/^error: clinadmin is not built \(no dist\/\S+\); run `npm run build` in /);
      expect(r.stderr.trim().endsWith(` in ${clone}`)).toBe(true);
    }
  });
});
