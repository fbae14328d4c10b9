import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A peer that answers every request with the same JSON text. */
async function peer(text: string): Promise<Record<string, string>> {
  const server = createServer((_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end(text));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { CLINADMIN_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, CLINADMIN_TOKEN: 't' };
}

describe('what a peer sends cannot crash the CLI', () => {
  it('shows a field of an unexpected type as its JSON in a table and in a record', async () => {
    const m = { id: 'msr_1', name: 'Odd', referenceRanges: 'three to five', panicRanges: { min: 1 }, unit: 5 };
    const env = await peer(JSON.stringify([m]));
    const list = await runCli(['measures', 'list', '-o', 'table'], { env, stdoutTTY: true });
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('"three to five"');
    expect(list.stdout).toContain('msr_1');
    const show = await runCli(['measures', 'show', 'msr_1', '-o', 'table'], {
      env: await peer(JSON.stringify(m)),
      stdoutTTY: true,
    });
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('{"min":1}');
  });

  it('refuses an answer nested absurdly deep in one sentence', async () => {
    const depth = 200_000;
    const env = await peer(`{"id":"msr_1","x":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    const r = await runCli(['measures', 'show', 'msr_1', '-o', 'json'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: the API sent an answer nested too deeply to show; it was refused\n');
  });
});
