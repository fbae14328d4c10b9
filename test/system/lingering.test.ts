// Covers: src/server/http/read-body.ts src/server/http/app.ts
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

const UPLOAD = fileURLToPath(new URL('../fixtures/upload.py', import.meta.url));
const SIZE = 2 * 2 ** 20;
const TRIES = 20;
const JSON_TYPE = 'application/json';

/** One upload with Node's http.request: the status it read, or the error's code. */
function nodeUpload(url: string, chunked: boolean): Promise<string> {
  const body = Buffer.alloc(SIZE, 'x');
  return new Promise((resolve) => {
    const req = request(
      `${url}/diagnostic-measures`,
      {
        method: 'POST',
        headers: {
          authorization: 'Bearer t',
          'content-type': 'application/json',
          ...(chunked ? {} : { 'content-length': String(SIZE) }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    for (let k = 0; k < SIZE; k += 65536) req.write(body.subarray(k, k + 65536));
    req.end();
  });
}

describe('a body refused before it was read whole (413 at a 1 MiB limit)', () => {
  let s: Awaited<ReturnType<typeof serveProcess>>;
  beforeAll(async () => {
    s = await serveProcess(['--data', join(await tempDir(), 'd.json'), '--token', 't']);
  });
  afterAll(async () => {
    s.proc.kill('SIGTERM');
    await s.proc;
  });

  for (const mode of ['length', 'chunked']) {
    it(`is answered so that Python's http.client reads the 413, ${TRIES} of ${TRIES} (${mode})`, async () => {
      const { hostname, port } = new URL(s.url);
      const r = await execa('python3', [UPLOAD, hostname, port, 't', mode, String(TRIES), String(SIZE), JSON_TYPE]);
      expect(r.stdout.split('\n')).toEqual(Array(TRIES).fill('413'));
    });

    it(`lets Python's http.client read a 401 or a 415 sent before the body was read (${mode})`, async () => {
      const { hostname, port } = new URL(s.url);
      const args = (token: string, type: string) => [UPLOAD, hostname, port, token, mode, '5', String(SIZE), type];
      expect((await execa('python3', args('wrong', JSON_TYPE))).stdout.split('\n')).toEqual(Array(5).fill('401'));
      expect((await execa('python3', args('t', 'text/plain'))).stdout.split('\n')).toEqual(Array(5).fill('415'));
    });

    it(`is answered so that Node's http.request reads the 413, ${TRIES} of ${TRIES} (${mode})`, async () => {
      const outcomes: string[] = [];
      for (let i = 0; i < TRIES; i++) outcomes.push(await nodeUpload(s.url, mode === 'chunked'));
      expect(outcomes).toEqual(Array(TRIES).fill('413'));
    });
  }

  it('still answers as before: nothing was stored', async () => {
    const res = await fetch(`${s.url}/diagnostic-measures`, { headers: { authorization: 'Bearer t' } });
    expect(await res.json()).toEqual([]);
  });
});
