// Covers: src/commands/sandbox/capture-run.ts
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';
import { variantServer } from '../helpers/variant.js';

// A rehearsal on a copy of the real service: sandbox capture reads a server that answers as a real one
// plausibly does (lists wrapped, in pages linked by Link: rel="next", createdAt in seconds, a field and a
// value this CLI does not know), and serve --load starts from what it wrote.

const procs: ResultPromise[] = [];
afterEach(async () => {
  for (const p of procs.splice(0)) {
    p.kill('SIGKILL');
    await p.catch(() => undefined);
  }
});

describe('sandbox capture', () => {
  it('copies every list of a paged, wrapped service into a file serve --load answers the same lists from', async () => {
    const variant = await variantServer();
    try {
      const dir = await tempDir();
      const captured = await clinadmin(['sandbox', 'capture', '--out', 'copy.json', '--timeout', '30'], {
        cwd: dir,
        env: { ...variant.env, CLINADMIN_CONFIG_DIR: join(dir, 'config') },
      });
      expect(captured.exitCode, captured.stderr).toBe(0);
      // What serve cannot hold is dropped and said, record and field; the rest is kept as the service sent it.
      expect(captured.stderr.split('\n')).toEqual([
        'dropped measures m1 labCode: serve does not know the field',
        expect.stringMatching(/^dropped measures m3 type: must be one of: numeric, /),
        'captured 3 measures, 1 coverage, 2 notifications and 1 contract into copy.json',
      ]);
      const data = JSON.parse(await readFile(join(dir, 'copy.json'), 'utf8'));
      expect(data.contracts).toEqual([{ id: 'ctr_1', insured: 'org_lab', insurer: 'org_insurer' }]);

      const s = await serveProcess(['--load', 'copy.json', '--token', 'tok:acc_ci:admin'], { cwd: dir });
      procs.push(s.proc);
      const list = async (path: string) =>
        (await fetch(s.url + path, { headers: { authorization: 'Bearer tok' } })).json();
      const { labCode: _, ...m1 } = variant.measures[0];
      const { type: __, ...m3 } = variant.measures[2];
      expect(await list('/diagnostic-measures')).toEqual([
        { ...m1, createdBy: 'captured' },
        { ...variant.measures[1], createdBy: 'captured' },
        { ...m3, createdBy: 'captured' },
      ]);
      expect(await list('/insurance-coverages')).toEqual(
        variant.coverages.map((c) => ({ ...c, createdBy: 'captured' })),
      );
      expect(await list('/notifications')).toEqual(variant.notifications.map((n) => ({ ...n, seenBy: [] })));
      s.proc.kill('SIGTERM');
      await s.proc;
    } finally {
      await variant.close();
    }
  });

  it('refuses at the first record serve cannot hold, without reading 8 MiB of them', async () => {
    // 8 MiB of `{}` records: each read whole and checked before the refusal once took minutes and gigabytes.
    const body = `[${Array.from({ length: (8 << 20) / 3 }, () => '{}').join(',')}]`;
    const server = await listening((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const dir = await tempDir();
    const r = await clinadmin(['sandbox', 'capture', '--out', 'copy.json'], { cwd: dir, env: envOf(server, dir) });
    server.close();
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: the server's records cannot be held by serve: measures #1: \w+: /);
    expect(existsSync(join(dir, 'copy.json'))).toBe(false);
  });

  it('says in a few short lines what it dropped from a record of 2,000 unknown fields and a long id', async () => {
    // 8 MB from the server once became 8 GB on stderr: a line per field, each repeating the 400 KB id.
    const fields = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, 1]));
    const id = 'a'.repeat(40_000);
    const body = JSON.stringify([{ id, test: 'tst_x', name: 'Glucose', ...fields }]);
    const server = await listening((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url?.startsWith('/diagnostic-measures') ? body : '[]');
    });
    const dir = await tempDir();
    const r = await clinadmin(['sandbox', 'capture', '--out', 'copy.json'], { cwd: dir, env: envOf(server, dir) });
    server.close();
    expect(r.exitCode, r.stderr.slice(0, 500)).toBe(0);
    expect(r.stderr.length).toBeLessThan(2_000);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^dropped measures a+… \(40,000 characters\) k0, k1, .*, k9 and 1,990 more: serve does not know/,
    );
    expect(lines[1]).toBe('captured 1 measure, 0 coverages, 0 notifications and 0 contracts into copy.json');
  });

  it('leaves a server paging on without end within a minute, without --timeout', async () => {
    // A page every 20 ms, each with one record and a link to a page never seen before.
    let n = 0;
    const server = await listening((req, res) => {
      n++;
      const next = `</diagnostic-measures?page=${n}>; rel="next"`;
      const page = [{ id: `m${n}`, test: 't', name: `M${n}`, type: 'numeric', createdAt: 1, createdBy: 'x' }];
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json', link: next });
        res.end(JSON.stringify(req.url?.startsWith('/diagnostic-measures') ? page : []));
      }, 20);
    });
    const dir = await tempDir();
    const r = await clinadmin(['sandbox', 'capture', '--out', 'copy.json'], { cwd: dir, env: envOf(server, dir) });
    server.close();
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: sandbox capture did not finish within 60 s; nothing was written');
    expect(existsSync(join(dir, 'copy.json'))).toBe(false);
  }, 120_000);
});

/** A server on a free port of 127.0.0.1 answering with `handle`. */
async function listening(handle: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handle);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return server;
}

/** The CLI pointed at `server` with a token, its config in `dir`. */
const envOf = (server: Server, dir: string) => ({
  CLINADMIN_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  CLINADMIN_TOKEN: 'tok',
  CLINADMIN_CONFIG_DIR: join(dir, 'config'),
});
