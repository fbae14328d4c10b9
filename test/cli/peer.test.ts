// Covers: src/output/present.ts src/output/describe.ts src/output/terminal.ts src/formats/csv/formula.ts
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

describe('text from a server at a terminal', () => {
  const evil = 'Evil\u001b]0;x\u0007 \u001b[2Jname';
  const record = { id: 'msr_evil', test: 'tst_x', name: evil, description: 'line one\n\u001b[31mred\u001b[0m' };

  it('never reaches a table, a describe view or an error as raw escape sequences', async () => {
    const list = await runCli(['measures', 'list', '-o', 'table'], {
      env: await peer(JSON.stringify([record])),
      stdoutTTY: true,
    });
    const show = await runCli(['measures', 'show', 'msr_evil', '-o', 'table'], {
      env: await peer(JSON.stringify(record)),
      stdoutTTY: true,
    });
    for (const out of [list.stdout, show.stdout]) {
      expect(out).not.toContain('\u001b]');
      expect(out).not.toContain('\u001b[2J');
      expect(out).not.toContain('\u0007');
      expect(out).toContain('Evil\\u001b]0;x\\u0007 \\u001b[2Jname');
    }
    expect(show.stdout).toContain('\\u001b[31mred\\u001b[0m');
    const server = createServer((_q, r) =>
      r.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `bad \u001b[2J${evil}` })),
    );
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const refused = await runCli(['measures', 'list'], { env: { CLINADMIN_BASE_URL: url, CLINADMIN_TOKEN: 't' } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).not.toContain('\u001b');
    expect(refused.stderr).toContain('bad \\u001b[2JEvil');
  });

  it('keeps the data unchanged in JSON, and escapes CSV cells a spreadsheet would run as formulas', async () => {
    const env = await peer(JSON.stringify([record, { id: 'msr_f', name: '=HYPERLINK("http://x")', test: '-1+2' }]));
    const json = await runCli(['measures', 'list', '-o', 'json'], { env });
    expect(JSON.parse(json.stdout)[0].name).toBe(evil);
    const csv = await runCli(['measures', 'list', '-o', 'csv', '--fields', 'id,name,test'], { env });
    expect(csv.stdout.split('\r\n')[2]).toBe(`msr_f,"'=HYPERLINK(""http://x"")",'-1+2`);
  });
});
