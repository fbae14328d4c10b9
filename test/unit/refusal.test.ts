// Covers: src/api/refusal.ts
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { readRefusal } from '../../src/api/refusal.js';
import { AuthError, EXIT } from '../../src/errors.js';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function answering(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const TOKEN = 'secret-token-123456';

async function refusal(status: number, type: string, body: string, trace?: string[]) {
  const url = await answering((_q, r) => r.writeHead(status, { 'content-type': type }).end(body));
  const c = new ApiClient({ baseUrl: url, token: TOKEN, timeoutMs: 5000, trace: trace && ((l) => trace.push(l)) });
  try {
    await c.request('POST', '/diagnostic-measures', { name: 'x' });
    throw new Error('no refusal');
  } catch (err) {
    return err as Error & { exitCode: number; hint?: string; details?: string[] };
  } finally {
    await c.close();
  }
}

describe('a refusal in the server words', () => {
  it('reads each shape real services use', () => {
    const cases: [string, unknown, Partial<ReturnType<typeof readRefusal>>][] = [
      [
        'application/problem+json',
        { title: 'Bad', detail: 'the body is invalid', errors: [{ path: 'name', message: 'is required' }] },
        { said: 'the body is invalid', details: ['name: is required'] },
      ],
      [
        'application/json',
        { message: 'name must be unique within the test', code: 'DUPLICATE_NAME' },
        { said: 'name must be unique within the test', code: 'DUPLICATE_NAME', details: [] },
      ],
      [
        'application/json',
        { error: 'forbidden: account acc_x may not read measures' },
        { said: 'forbidden: account acc_x may not read measures' },
      ],
      [
        'application/json',
        { error: { message: 'rate limited', code: 'SLOW_DOWN' } },
        { said: 'rate limited', code: 'SLOW_DOWN' },
      ],
      ['application/json', { detail: 'gone fishing' }, { said: 'gone fishing' }],
      [
        'application/json',
        {
          errors: [
            { field: 'unit', message: 'is unknown' },
            'second problem',
            { source: { pointer: '/name' }, detail: 'too long' },
          ],
        },
        { said: 'unit: is unknown', details: ['second problem', '/name: too long'] },
      ],
      ['application/json', { nothing: 'useful' }, { said: 'HTTP 400', details: [] }],
    ];
    for (const [type, body, expected] of cases) {
      expect(readRefusal(400, type, JSON.stringify(body), body), JSON.stringify(body)).toMatchObject(expected);
    }
    expect(readRefusal(400, 'text/plain', 'name is taken\nmore lines', undefined).said).toBe('name is taken');
    expect(readRefusal(502, 'text/html', '<html><body>Bad gateway</body></html>', undefined).said).toBe('HTTP 502');
  });

  it("shows the server's sentence and code, and lists its field errors", async () => {
    const err = await refusal(
      400,
      'application/json',
      JSON.stringify({ message: 'name must be unique within the test', code: 'DUPLICATE_NAME' }),
    );
    expect(err.message).toBe(
      'the API refused POST /diagnostic-measures (400): name must be unique within the test (DUPLICATE_NAME)',
    );
    expect(err.exitCode).toBe(EXIT.failure);
    const fields = await refusal(
      422,
      'application/json',
      JSON.stringify({ message: 'invalid', errors: [{ field: 'unit', message: 'is unknown' }] }),
    );
    expect(fields.details).toEqual(['unit: is unknown']);
    const plain = await refusal(409, 'text/plain', 'a measure with this name exists');
    expect(plain.message).toBe('the API refused POST /diagnostic-measures (409): a measure with this name exists');
  });

  it('tells 401 (log in again) from 403 (the token was accepted; logging in cannot help); both exit 4', async () => {
    const unauthorized = await refusal(401, 'application/json', JSON.stringify({ message: 'token expired' }));
    expect(unauthorized).toBeInstanceOf(AuthError);
    expect(unauthorized.message).toBe('the API refused the token (401): token expired');
    expect(unauthorized.hint).toMatch(/clinadmin login/);
    const forbidden = await refusal(
      403,
      'application/json',
      JSON.stringify({ error: 'forbidden: account acc_x may not read measures' }),
    );
    expect(forbidden.exitCode).toBe(EXIT.auth);
    expect(forbidden.message).toBe(
      'the API does not allow POST /diagnostic-measures (403): forbidden: account acc_x may not read measures',
    );
    expect(forbidden.hint).toBeUndefined();
  });

  it('shows the whole body with --verbose, the token redacted', async () => {
    const trace: string[] = [];
    await refusal(
      400,
      'application/json',
      JSON.stringify({ message: 'no', echo: `Bearer ${TOKEN}`, more: 'x' }),
      trace,
    );
    expect(trace.join('\n')).toContain('body: {"message":"no","echo":"Bearer [redacted]","more":"x"}');
    expect(trace.join('\n')).not.toContain(TOKEN);
  });

  it("shows a bounded part of a hostile server's words, counting what it left out", async () => {
    const long = await refusal(400, 'application/json', JSON.stringify({ message: 'w'.repeat(1_000_000), code: 'C' }));
    expect(long.message).toBe(
      `the API refused POST /diagnostic-measures (400): ${'w'.repeat(1000)}… (999,000 more characters) (C)`,
    );
    const errors = Array.from({ length: 10_000 }, (_, i) => ({ field: `f${i}`, message: 'x'.repeat(2000) }));
    const many = await refusal(422, 'application/problem+json', JSON.stringify({ detail: 'invalid', errors }));
    expect(many.details).toHaveLength(21);
    expect(many.details?.[0]).toBe(`f0: ${'x'.repeat(996)}… (1,004 more characters)`);
    expect(many.details?.at(-1)).toBe('… and 9,980 more field errors');
  });

  it('redacts the token before it cuts, so no part of it shows', async () => {
    // The token starts 10 characters before the cut: cut first, its first 10 characters would show.
    const said = `${'a'.repeat(990 - 'Bearer '.length)}Bearer ${TOKEN} and more ${'b'.repeat(400)}`;
    const err = await refusal(400, 'application/json', JSON.stringify({ message: said, errors: [said] }));
    expect(err.message).not.toContain(TOKEN.slice(0, 6));
    expect(err.details?.join('\n')).not.toContain(TOKEN.slice(0, 6));
    expect(err.message).toContain('Bearer [redacted]');
  });
});
