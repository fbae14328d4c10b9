// Covers: src/server/start.ts src/commands/serve-run.ts
import { readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

/** A data file of measures whose list is several megabytes (~24 MB at 40,000). */
async function bigCatalog(file: string, n: number): Promise<void> {
  const records = Array.from({ length: n }, (_, i) => ({
    id: `msr_big${i}`,
    createdAt: 1_790_000_000_000,
    createdBy: 'acc',
    test: `tst_${i % 500}`,
    name: `Big ${i}`,
    type: 'numeric',
    unit: 'mg/dL',
    description: 'd'.repeat(500),
  }));
  await writeFile(file, JSON.stringify({ formatVersion: 2, diagnosticMeasures: records }));
}

/**
 * A client that asks for the whole list, reads its first bytes (so the answer has surely begun) and then
 * stops reading: the socket's buffers fill, and the server's writes wait for ever unless something bounds them.
 */
async function stuckClient(url: string, token: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((r) => socket.once('connect', () => r()));
  socket.write(`GET /diagnostic-measures HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\n\r\n`);
  await new Promise<void>((r) => socket.once('data', () => r()));
  socket.pause();
  socket.on('error', () => undefined);
  return socket;
}

/**
 * Whether process `pid` still holds the connection from local port `peer` (Linux: its socket fds matched
 * against /proc/net/tcp): what says a server closed a connection whose client stopped reading.
 */
async function holds(pid: number, peer: number): Promise<boolean> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const m = /^socket:\[(\d+)\]$/.exec(await readlink(`/proc/${pid}/fd/${fd}`).catch(() => ''));
    if (m) inodes.add(m[1]);
  }
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1)) {
      const [, , remote, , , , , , , inode] = line.trim().split(/\s+/);
      if (remote && Number.parseInt(remote.split(':')[1], 16) === peer && inodes.has(inode)) return true;
    }
  }
  return false;
}

/** A measure created through the API: acknowledged with 200 once it is on disk. */
const create = (url: string, name: string) =>
  fetch(`${url}/diagnostic-measures`, {
    method: 'POST',
    headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
    body: JSON.stringify({ test: 'tst_stop', name, type: 'numeric', unit: 'mg/dL' }),
  });

const until = (proc: Promise<unknown>) => {
  const started = Date.now();
  return proc.then((r) => ({ r: r as { exitCode?: number; stderr?: string }, ms: Date.now() - started }));
};

describe('serve says on stop that its data is saved, and where', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'on %s: the last line names the data file, which holds the change',
    async (sig) => {
      const dir = await tempDir();
      const file = join(dir, 'data.json');
      const { url, proc } = await serveProcess(['--data', file, '--token', 't']);
      const created = await create(url, `Saved on ${sig}`);
      expect(created.status).toBe(200);
      const { id } = (await created.json()) as { id: string };
      proc.kill(sig);
      const r = (await proc) as { exitCode?: number; stderr?: string };
      expect(r.exitCode).toBe(0);
      expect(r.stderr?.trimEnd().split('\n').at(-1)).toBe(`stopped; the data is saved in ${file}`);
      const data = JSON.parse(await readFile(file, 'utf8')) as { diagnosticMeasures: { id: string; name: string }[] };
      expect(data.diagnosticMeasures.find((m) => m.id === id)?.name).toBe(`Saved on ${sig}`);
    },
  );
});

describe('serve stops on time, whatever its clients do', () => {
  // No wall-clock upper bound here (a busy machine stretches any run): a stop that waits longer than it
  // should waits for ever with --request-timeout of an hour, and the test's own timeout catches the hang.
  const noDeadline = ['--request-timeout', '3600000'];

  it('SIGTERM, a client that never reads a 24 MB list: closed after --stop-grace, exit 0, writes kept', async () => {
    const dir = await tempDir();
    const file = join(dir, 'data.json');
    await bigCatalog(file, 40_000);
    const { url, proc } = await serveProcess(['--data', file, '--token', 't', '--stop-grace', '2', ...noDeadline]);
    const created = await create(url, 'Kept');
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    const stuck = await stuckClient(url, 't');
    // Not proc.kill: execa follows a SIGTERM with SIGKILL after 5 s, which would hide a hang.
    process.kill(proc.pid!, 'SIGTERM');
    const { r, ms } = await until(proc);
    stuck.destroy();
    expect(r.exitCode, JSON.stringify(r)).toBe(0);
    expect(r.stderr).toMatch(/SIGTERM: finishing requests in flight \(at most 2 s\)/);
    // The stuck answer was given its grace, not cut at once; then closed, as the stop could not end otherwise.
    expect(ms).toBeGreaterThanOrEqual(2_000);
    expect(r.stderr?.trimEnd().split('\n').at(-1)).toBe(`stopped; the data is saved in ${file}`);
    const again = await serveProcess(['--data', file, '--token', 't']);
    const kept = await fetch(`${again.url}/diagnostic-measures/${id}`, { headers: { authorization: 'Bearer t' } });
    expect(kept.status).toBe(200);
    again.proc.kill('SIGTERM');
    expect((await again.proc).exitCode).toBe(0);
  });

  it('a second signal stops at once (130), and the acknowledged write is there after a restart', async () => {
    const dir = await tempDir();
    const file = join(dir, 'data.json');
    await bigCatalog(file, 40_000);
    // A grace of an hour: the second signal surely lands while the stuck answer is still being given.
    const { url, proc, stderr } = await serveProcess([
      '--data',
      file,
      '--token',
      't',
      '--stop-grace',
      '3600',
      ...noDeadline,
    ]);
    const created = await create(url, 'Journalled');
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    const stuck = await stuckClient(url, 't');
    process.kill(proc.pid!, 'SIGTERM');
    await expect.poll(stderr, { timeout: 60_000 }).toMatch(/at most 3600 s.*a second signal stops at once/);
    process.kill(proc.pid!, 'SIGINT');
    const { r } = await until(proc);
    stuck.destroy();
    expect(r.exitCode, JSON.stringify(r)).toBe(130);
    expect(r.stderr?.trimEnd().split('\n').at(-1)).toBe(
      'stopped at once; acknowledged writes are in the journal and are replayed at the next start',
    );
    const again = await serveProcess(['--data', file, '--token', 't']);
    const kept = await fetch(`${again.url}/diagnostic-measures/${id}`, { headers: { authorization: 'Bearer t' } });
    expect(kept.status).toBe(200);
    again.proc.kill('SIGTERM');
    expect((await again.proc).exitCode).toBe(0);
  });

  it('closes a connection that makes no progress for --request-timeout, without any signal', async () => {
    const dir = await tempDir();
    const file = join(dir, 'data.json');
    await bigCatalog(file, 40_000);
    const deadline = ['--headers-timeout', '1000', '--request-timeout', '1500', '--stop-grace', '3600'];
    const { url, proc } = await serveProcess(['--data', file, '--token', 't', ...deadline]);
    const whole = (await (await fetch(`${url}/diagnostic-measures`, { headers: { authorization: 'Bearer t' } })).text())
      .length;
    const stuck = await stuckClient(url, 't');
    expect(await holds(proc.pid!, stuck.localPort!)).toBe(true);
    // Past the deadline the server closes the connection it could not finish, though its client never read.
    await expect.poll(() => holds(proc.pid!, stuck.localPort!), { timeout: 15_000 }).toBe(false);
    // With no request in flight, a stop is at once, not after its grace (an hour here: a wait would hang).
    // Not proc.kill: execa follows a SIGTERM with SIGKILL after 5 s, which would hide a hang.
    process.kill(proc.pid!, 'SIGTERM');
    const { r } = await until(proc);
    expect(r.exitCode).toBe(0);
    // The stuck client, reading again, finds its answer cut short and the connection closed.
    let read = 0;
    stuck.on('data', (d: Buffer) => (read += d.length));
    const closed = new Promise<void>((resolve) => stuck.once('close', () => resolve()));
    stuck.resume();
    await closed;
    expect(read).toBeLessThan(whole);
  });
});
