// Covers: src/commands/completion-run.ts src/config/resolve.ts src/api/transport.ts src/output/text.ts
// Covers: src/core/sync/existing.ts src/formats/json/array-stream.ts src/formats/json/record.ts
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { clinadmin } from '../helpers/bin.js';
import { endless, HOSTILE_IDS, hostileServer, listOfIds } from '../helpers/hostile.js';
import { binOnPath, E2E_TOKEN, loggedIn } from '../helpers/logged-in.js';
import { runShippedAsProcess } from '../helpers/run-shipped.js';
import { tempDir } from '../helpers/tmp.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const maxRss = fileURLToPath(new URL('../helpers/max-rss.cjs', import.meta.url));

describe('a server that sends hostile ids', () => {
  it('__complete prints only ids made of safe characters', async () => {
    const h = await hostileServer(listOfIds(HOSTILE_IDS));
    const r = await clinadmin(['__complete', 'measures'], {
      env: { CLINADMIN_BASE_URL: h.url, CLINADMIN_TOKEN: 'tok-hostile-1234' },
    });
    expect(r.stdout).toBe('msr_ok1\nmsr_ok2');
  });

  it('__complete gives up after its 2 s in all, not 2 s for each slow page of a list', async () => {
    // Forty pages of one id, each 300 ms late: 12 s in all, which a shell at TAB would sit through.
    const h = await hostileServer((req, res) => {
      const p = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('p') ?? 0);
      const next = p < 39 ? { link: `</diagnostic-measures?p=${p + 1}>; rel="next"` } : {};
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json', ...next });
        res.end(JSON.stringify([{ id: `msr_${p}`, name: 'x' }]));
      }, 300);
    });
    const r = await clinadmin(['__complete', 'measures'], {
      env: { CLINADMIN_BASE_URL: h.url, CLINADMIN_TOKEN: 'tok-hostile-1234' },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(h.seen.length).toBeGreaterThan(0);
    expect(h.seen.length).toBeLessThan(10);
  });

  it('runs nothing at TAB in bash, and offers only the safe ids', async () => {
    const h = await hostileServer(listOfIds(HOSTILE_IDS));
    const cwd = await tempDir();
    const path = `${await binOnPath()}:${process.env.PATH}`;
    // The shell's own completion entry point, as bash calls it at TAB.
    const script =
      `source ${join(root, 'completions', 'clinadmin.bash')}; ` +
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own ${COMPREPLY[@]}, run as written.
      'COMP_WORDS=(clinadmin measures show msr_); COMP_CWORD=3; _clinadmin; printf "%s\\n" "${COMPREPLY[@]}"';
    const r = await execa('bash', ['--norc', '-c', script], {
      cwd,
      env: { PATH: path, HOME: await tempDir(), CLINADMIN_BASE_URL: h.url, CLINADMIN_TOKEN: 'tok-hostile-1234' },
      reject: false,
    });
    expect(r.stdout.split('\n').sort()).toEqual(['msr_ok1', 'msr_ok2']);
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(cwd)).toEqual([]);
    // The server was asked, so the safety is not from a silent completion.
    expect(h.seen.some((s) => s.url === '/diagnostic-measures')).toBe(true);
  });
});

describe('a token goes only to the origin it was stored for', () => {
  it('refuses --base-url or CLINADMIN_BASE_URL of another origin with exit 4, sending nothing there', async () => {
    const { run, server } = await loggedIn();
    const other = await hostileServer(listOfIds(['msr_1']));
    for (const args of [
      ['measures', 'list', '--base-url', other.url],
      ['measures', 'list', '-o', 'json'],
    ]) {
      const env: Record<string, string> = args.includes('--base-url') ? {} : { CLINADMIN_BASE_URL: other.url };
      const r = await run(args, env);
      expect(r.exitCode).toBe(4);
      expect(r.stderr).toContain(`the token of profile default is for ${server.url}, not ${other.url}`);
      expect(r.stderr.trim().split('\n')[0]).toMatch(/^error: /);
    }
    expect(other.seen).toEqual([]);
    // localhost is another origin than 127.0.0.1, though it reaches the same server.
    const local = server.url.replace('127.0.0.1', 'localhost');
    expect((await run(['measures', 'list', '--base-url', local])).exitCode).toBe(4);
    // A trailing slash, or the default written out, is the same origin.
    expect((await run(['measures', 'list', '--base-url', `${server.url}/`])).exitCode).toBe(0);
  });

  it('uses a token given for the other origin, and completion follows the same rule', async () => {
    const { run } = await loggedIn();
    const other = await hostileServer(listOfIds(['msr_1']));
    const given = await run(['measures', 'list', '-o', 'json', '--base-url', other.url], {
      CLINADMIN_TOKEN: 'token-for-other-origin',
    });
    expect(given.exitCode).toBe(0);
    expect(other.seen.map((s) => s.authorization)).toEqual(['Bearer token-for-other-origin']);
    other.seen.length = 0;
    const completion = await run(['__complete', 'measures'], { CLINADMIN_BASE_URL: other.url });
    expect(completion.stdout).toBe('');
    expect(other.seen).toEqual([]);
    expect(E2E_TOKEN).not.toBe('token-for-other-origin');
  });
});

describe("the CLI's memory is capped, not the peer's to grow", () => {
  const peak = async (url: string, args: string[]) => {
    const dir = await tempDir();
    const file = join(dir, 'rss');
    const r = await clinadmin(args, {
      env: {
        CLINADMIN_BASE_URL: url,
        CLINADMIN_TOKEN: 'tok-hostile-1234',
        NODE_OPTIONS: `--require ${maxRss}`,
        MAX_RSS_FILE: file,
      },
    });
    return { r, mb: Number(await readFile(file, 'utf8')) / 1024 };
  };

  for (const [what, head] of [
    ['a list element that never ends', '[{"id":"msr_1"},{"id":"msr_2","name":"'],
    ['a 1 GB object where a list was asked for', '{"name":"'],
  ] as const) {
    it(`refuses ${what} at 64 MiB, far below 512 MB`, async () => {
      const h = await hostileServer(endless(head, 1024 ** 3));
      for (const args of [
        ['measures', 'list', '-o', 'json'],
        ['measures', 'list'],
        ['__complete', 'measures'],
      ]) {
        const { r, mb } = await peak(h.url, args);
        if (args[0] === '__complete') {
          expect(r.exitCode).toBe(0);
          expect(r.stderr).toBe('');
        } else {
          expect(r.exitCode).toBe(1);
          expect(r.stderr).toMatch(/larger than 64 MiB, the cap for one; it was refused/);
        }
        expect(mb).toBeLessThan(300);
      }
    });
  }
});

// From here on the CLI runs as it ships in this process (runShippedAsProcess): what it writes and sends is
// checked, not its process, its memory or a shell's.
describe('every text from the server that reaches a person is escaped', () => {
  const ESC = '\u001b]0;pwned\u0007\u001b[2J';
  const record = { id: `msr_evil${ESC}`, test: 'tst_h', name: 'Hostile', type: 'text', description: `old${ESC}` };

  it('in --verbose traces of a refusal, in import -v lines and in the diff an update shows', async () => {
    const h = await hostileServer((req, res) => {
      if (req.method === 'GET' && req.url === '/diagnostic-measures') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify([record]));
      }
      if (req.method === 'PATCH') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ ...record, description: 'new' }));
      }
      res.writeHead(404, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ title: `Not here${ESC}`, status: 404, detail: `nothing${ESC}` }));
    });
    const env = { CLINADMIN_BASE_URL: h.url, CLINADMIN_TOKEN: 'tok-hostile-1234' };
    const shown = await runShippedAsProcess(['measures', 'show', 'msr_1', '--verbose'], { env });
    expect(shown.exitCode).toBe(3);
    expect(shown.stderr).toContain('body: ');
    const dir = await tempDir();
    const file = join(dir, 'catalog.json');
    await writeFile(file, JSON.stringify([{ test: 'tst_h', name: 'Hostile', type: 'text', description: 'new' }]));
    const imported = await runShippedAsProcess(['measures', 'import', file, '-v', '--yes'], { env });
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(imported.stderr).toMatch(/updated\s+msr_evil\\u001b/);
    const updated = await runShippedAsProcess(['measures', 'update', record.id, '--description', 'new', '--dry-run'], {
      env,
    });
    for (const r of [shown, imported, updated]) {
      expect(`${r.stdout}${r.stderr}`).not.toMatch(/[\u0007\u001b]/);
    }
  });
});

describe('a list whose elements are not all records', () => {
  it('is refused in every command that reads it, naming the element, with the records before it written', async () => {
    const kalium = { id: 'msr_a', test: 'tst_1', name: 'Kalium', type: 'numeric' };
    const h = await hostileServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // A wrapper object is read whole, a bare array streamed: both ways a list can come.
      const list = [kalium, null, { id: 'msr_b', test: 'tst_1', name: 'Natrium', type: 'text' }];
      res.end(JSON.stringify(req.url?.startsWith('/diagnostic-measures') ? list : { items: list }));
    });
    const env = { CLINADMIN_BASE_URL: h.url, CLINADMIN_TOKEN: 'tok-hostile-1234' };
    for (const args of [
      ['measures', 'list', '-o', 'json'],
      ['measures', 'list', '--name-like', 'KAL', '-o', 'ndjson'],
      ['measures', 'list', '-o', 'wide'],
      ['measures', 'export', '--format', 'csv'],
      ['notifications', 'list', '-o', 'json'],
    ]) {
      const r = await runShippedAsProcess(args, { env });
      expect({ args, code: r.exitCode }).toEqual({ args, code: 1 });
      const path = args[0] === 'measures' ? '/diagnostic-measures' : '/notifications';
      expect(r.stderr).toContain(`answered GET ${path} with a list whose element 2 is null, not a record`);
      expect(r.stderr).not.toMatch(/unexpected|connection to/);
    }
    // Streamed or read whole, the record before the bad one is written, and nothing after it.
    for (const group of ['measures', 'coverages']) {
      const listed = await runShippedAsProcess([group, 'list', '-o', 'ndjson'], { env });
      expect({ group, out: listed.stdout }).toEqual({ group, out: JSON.stringify(kalium) });
      expect(listed.stderr).toContain('the list was read no further');
    }
  });
});

describe('a server that cuts off the list an import plans against', () => {
  const stored = { id: 'msr_cut', test: 'tst_cut', name: 'Cut', type: 'text' };
  // What a proxy does to an answer that waited: part of the list, then the connection dropped.
  const cut = (res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(`[${JSON.stringify(stored)},`);
    setTimeout(() => res.destroy(), 50);
  };

  it('asks for it once more and plans against the whole list', async () => {
    let lists = 0;
    const h = await hostileServer((req, res) => {
      if (req.method === 'GET' && req.url === '/diagnostic-measures' && ++lists === 1) return cut(res);
      if (req.method === 'GET' && req.url === '/diagnostic-measures') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify([stored]));
      }
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"title":"no write was expected"}');
    });
    const file = join(await tempDir(), 'catalog.json');
    await writeFile(file, JSON.stringify([{ test: 'tst_cut', name: 'Cut', type: 'text' }]));
    const r = await runShippedAsProcess(['measures', 'import', file, '-o', 'json'], {
      env: { CLINADMIN_BASE_URL: h.url, CLINADMIN_TOKEN: 'tok-hostile-1234' },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 0, updated: 0, unchanged: 1, failed: 0 });
    expect(h.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /diagnostic-measures', 'GET /diagnostic-measures']);
    // The plan stands on the second answer, and the first one's fault is said.
    const again = 'warning: the first answer to GET /diagnostic-measures failed (';
    expect(r.stderr).toContain(`${again}the connection to ${h.url} broke after 1 records`);
  });

  it('says which element of the first answer was refused when it plans against a second one', async () => {
    let lists = 0;
    const h = await hostileServer((req, res) => {
      if (req.method !== 'GET') {
        res.writeHead(500, { 'content-type': 'application/json' });
        return void res.end('{"title":"no write was expected"}');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(++lists === 1 ? `[${JSON.stringify(stored)},null]` : JSON.stringify([stored]));
    });
    const file = join(await tempDir(), 'catalog.json');
    await writeFile(file, JSON.stringify([{ test: 'tst_cut', name: 'Cut', type: 'text' }]));
    const r = await runShippedAsProcess(['measures', 'import', file, '--dry-run'], {
      env: { CLINADMIN_BASE_URL: h.url, CLINADMIN_TOKEN: 'tok-hostile-1234' },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `failed (the API at ${h.url} answered GET /diagnostic-measures with a list whose element 2 ` +
        'is null, not a record); asking once more',
    );
    expect(r.stdout).toContain('dry run: 0 to create, 0 to update, 1 unchanged, 0 in error');
  });

  it('says so in one sentence when it is cut off again, and sends nothing', async () => {
    const h = await hostileServer((req, res) => {
      if (req.method === 'GET') return cut(res);
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"title":"no write was expected"}');
    });
    const file = join(await tempDir(), 'catalog.json');
    await writeFile(file, JSON.stringify([{ test: 'tst_cut', name: 'Cut', type: 'text' }]));
    const r = await runShippedAsProcess(['measures', 'import', file], {
      env: { CLINADMIN_BASE_URL: h.url, CLINADMIN_TOKEN: 'tok-hostile-1234' },
    });
    expect(r.exitCode).toBe(1);
    // The first answer's fault is said as it is asked for again, the second's as the error.
    const [warned, error] = r.stderr.split('\n');
    expect(warned).toMatch(/^warning: the first answer to GET \/diagnostic-measures failed \(the connection/);
    expect(error).toMatch(/^error: the connection to http:\/\/127\.0\.0\.1:\d+ broke after 1 records/);
    expect(h.seen.every((s) => s.method === 'GET')).toBe(true);
    expect(h.seen).toHaveLength(2);
  });
});
