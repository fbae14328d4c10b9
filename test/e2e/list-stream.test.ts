// Covers: src/output/stream.ts src/output/list.ts src/output/formats.ts src/commands/resource/list-run.ts
// Covers: src/formats/json/array-stream.ts
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { toCsv, toJson, toNdjson } from '../../src/output/formats.js';
import { clinadmin } from '../helpers/bin.js';
import { TOKEN, testServer } from '../helpers/server.js';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.closeAllConnections();
  for (const s of servers.splice(0)) s.close();
});

/** A peer whose answer the test writes by hand, piece by piece. */
async function handPeer(): Promise<{ env: Record<string, string>; answer: Promise<ServerResponse> }> {
  let give!: (r: ServerResponse) => void;
  const answer = new Promise<ServerResponse>((r) => (give = r));
  const server = createServer((_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    give(res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { env: { CLINADMIN_BASE_URL: url, CLINADMIN_TOKEN: 't' }, answer };
}

describe('lists stream', () => {
  it('writes a table row before the rest of the list has arrived', async () => {
    const { env, answer } = await handPeer();
    const proc = clinadmin(['measures', 'list', '-o', 'table'], { env: { ...env, COLUMNS: '80' } });
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const res = await answer;
    res.write('[{"id":"msr_first","name":"First","test":"t1"}');
    // The columns are sized from what came in the first moments; the row shows without the rest.
    await expect
      .poll(() => out, { timeout: 10_000 })
      .toMatch(/^ID\s+TEST\s+NAME\s+TYPE\s+UNIT\s+REFERENCE RANGES\nmsr_first\s+t1\s+First\n$/);
    res.end(',{"id":"msr_second","name":"Second","test":"t2"}]');
    const r = await proc;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(out.split('\n')[2]).toMatch(/^msr_second\s+t2\s+Second$/);
  });

  it('sizes a table from the records when the answer comes in pages, a few bytes at a time', async () => {
    // Each page holds one record and is sent in pieces of a few bytes, so the CLI's first reads of the list
    // hold no whole record: the columns must still come from the records, not from the headers alone.
    const records = [
      { id: 'msr_sodium', test: 'tst_basic_metabolic', name: 'Sodium in serum', unit: 'mmol/L' },
      { id: 'msr_k', test: 'tst_bmp', name: 'Potassium', unit: 'mEq/L' },
    ];
    const server = createServer((req, res) => {
      const from = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('offset') ?? '0');
      const more = from + 1 < records.length;
      res.writeHead(200, {
        'content-type': 'application/json',
        ...(more ? { link: `</diagnostic-measures?offset=${from + 1}>; rel="next"` } : {}),
      });
      const body = Buffer.from(JSON.stringify({ data: records.slice(from, from + 1) }));
      let at = 0;
      const dribble = () => {
        if (res.destroyed) return;
        if (at >= body.length) return void res.end();
        res.write(body.subarray(at, at + 4));
        at += 4;
        setTimeout(dribble, 5);
      };
      dribble();
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const r = await clinadmin(['measures', 'list', '-o', 'table'], {
      env: { CLINADMIN_BASE_URL: url, CLINADMIN_TOKEN: 't', COLUMNS: '200' },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    // Each column as wide as its widest value (the first record's), two spaces between: nothing cut at 200.
    expect(r.stdout.split('\n')).toEqual([
      `${'ID'.padEnd(10)}  ${'TEST'.padEnd(19)}  ${'NAME'.padEnd(15)}  TYPE  ${'UNIT'.padEnd(6)}  REFERENCE RANGES`,
      `msr_sodium  tst_basic_metabolic  Sodium in serum  ${''.padEnd(4)}  mmol/L`,
      `${'msr_k'.padEnd(10)}  ${'tst_bmp'.padEnd(19)}  ${'Potassium'.padEnd(15)}  ${''.padEnd(4)}  mEq/L`,
    ]);
  });

  it('fetches no page past the one that fills --limit', async () => {
    // Three pages of two records, each linking the next (RFC 8288 rel="next").
    const asked: string[] = [];
    const server = createServer((req, res) => {
      asked.push(req.url ?? '');
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
      res.writeHead(200, {
        'content-type': 'application/json',
        ...(page < 3 ? { link: `</diagnostic-measures?page=${page + 1}>; rel="next"` } : {}),
      });
      res.end(JSON.stringify([1, 2].map((k) => ({ id: `msr_${page}_${k}`, test: 't', name: `N${page}${k}` }))));
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const env = {
      CLINADMIN_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      CLINADMIN_TOKEN: 't',
    };
    const r = await clinadmin(['measures', 'list', '--limit', '3', '--fields', 'id', '-o', 'csv'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\r\n')).toEqual(['id', 'msr_1_1', 'msr_1_2', 'msr_2_1']);
    expect(asked).toEqual(['/diagnostic-measures', '/diagnostic-measures?page=2']);
  });

  it('writes each record before the next has arrived', async () => {
    const { env, answer } = await handPeer();
    const proc = clinadmin(['measures', 'list', '-o', 'ndjson'], { env });
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const res = await answer;
    res.write('[{"id":"msr_first","name":"First"}');
    // The second record is sent only once the first is on stdout: a CLI that waited for the whole list hangs.
    await expect.poll(() => out, { timeout: 10_000 }).toBe('{"id":"msr_first","name":"First"}\n');
    res.end(',{"id":"msr_second","name":"Second"}]');
    const r = await proc;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('{"id":"msr_first","name":"First"}\n{"id":"msr_second","name":"Second"}');
  });

  it('writes exactly what the whole-list formats write: JSON, NDJSON and CSV, with and without --fields', async () => {
    const s = await testServer({ seed: true });
    const env = { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN };
    const all = (await s.call('GET', '/diagnostic-measures')).body as Record<string, unknown>[];
    const opts = { env, stripFinalNewline: false };
    expect((await clinadmin(['measures', 'list', '-o', 'json'], opts)).stdout).toBe(toJson(all));
    expect((await clinadmin(['measures', 'list', '-o', 'ndjson'], opts)).stdout).toBe(toNdjson(all));
    const picked = all.map((m) => ({ id: m.id, name: m.name }));
    expect((await clinadmin(['measures', 'list', '-o', 'json', '--fields', 'id,name'], opts)).stdout).toBe(
      toJson(picked),
    );
    expect((await clinadmin(['measures', 'list', '-o', 'csv', '--fields', 'id,name'], opts)).stdout).toBe(
      toCsv(picked, ['id', 'name']),
    );
    const none = await clinadmin(['coverages', 'list', '-o', 'json'], {
      ...opts,
      env: { ...env, CLINADMIN_BASE_URL: (await testServer()).url },
    });
    expect(none.stdout).toBe('[]\n');
  });

  it('-o ndjson passes a compact record on as it came, and reads any other through JSON.parse', async () => {
    const { env, answer } = await handPeer();
    const proc = clinadmin(['measures', 'list', '-o', 'ndjson'], { env, stripFinalNewline: false });
    const res = await answer;
    // A record split across two pieces, one pretty-printed (one line out), one with spaces and an escape.
    res.write('[{"id":"a","name":"x\\"y","n":[1,2.5e-3,true,null]}, {"id": "b",\n  "name": "B"');
    res.end('},\n{"id":"c", "s":"\\u001b[31m"}]');
    const r = await proc;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      '{"id":"a","name":"x\\"y","n":[1,2.5e-3,true,null]}\n{"id":"b","name":"B"}\n{"id":"c", "s":"\\u001b[31m"}\n',
    );
  });

  it('-o ndjson never passes on a record the server broke: a raw control character, or a foreign token', async () => {
    for (const bad of ['[{"id":"a","s":"\u001b[31mred"}]', '[{"id":"a","n":NaN}]', '[{"id":"a","s":"one\ntwo"}]']) {
      const { env, answer } = await handPeer();
      const proc = clinadmin(['measures', 'list', '-o', 'ndjson'], { env });
      (await answer).end(bad);
      const r = await proc;
      expect(r.exitCode, bad).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('sent a list that is not valid JSON');
    }
  });

  it('reads a list in a wrapper object, and names what arrived when it is no list at all', async () => {
    const wrapped = await handPeer();
    const proc = clinadmin(['measures', 'list', '-o', 'ndjson'], { env: wrapped.env });
    (await wrapped.answer).end('{"diagnosticAnalyzers": [{"id":"msr_a"},{"id":"msr_b"}]}');
    expect((await proc).stdout).toBe('{"id":"msr_a"}\n{"id":"msr_b"}');

    const odd = await handPeer();
    const oddProc = clinadmin(['measures', 'list', '-o', 'json'], { env: odd.env });
    (await odd.answer).end('{"total": 2, "page": 1}');
    const r = await oddProc;
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/with an object with keys total, page, not a list/);
  });

  it('says so when a list is cut off', async () => {
    const { env, answer } = await handPeer();
    const proc = clinadmin(['measures', 'list', '-o', 'ndjson'], { env });
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const res = await answer;
    res.write('[{"id":"msr_a"},{"id":"ms');
    // Once a record has been written out the list cannot be asked for again without repeating it.
    await expect.poll(() => out, { timeout: 10_000 }).toContain('msr_a');
    res.socket!.destroy();
    const r = await proc;
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /^error: the connection to \S+ broke after 1 records of the list; what was written is incomplete$/m,
    );
  });

  it('refuses to hold a list over 256 MiB for YAML, pointing at the formats that stream', async () => {
    const { env, answer } = await handPeer();
    const proc = clinadmin(['measures', 'list', '-o', 'yaml'], { env });
    const res = await answer;
    const record = Buffer.from(`{"id":"msr_pad","name":"${'x'.repeat(1024 * 1024)}"},`);
    res.write('[');
    // Sent as fast as the CLI reads it, until it hangs up: no more than 300 MiB either way.
    for (let i = 0; i < 300 && !res.destroyed; i++) {
      if (!res.write(record)) await new Promise((r) => res.once('drain', r).once('close', r));
    }
    res.destroy();
    const r = await proc;
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /sent a list larger than 256 MiB, too large to hold for this view\nhint: use -o table, -o ndjson, -o json/,
    );
  }, 60_000);
});
