// Covers: src/output/prompts.ts
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/bin.js';
import { loggedIn, E2E_TOKEN as TOKEN } from '../helpers/logged-in.js';

describe('the built binary at a real pseudo-terminal (script(1))', () => {
  it('answers a prompt typed at a real pseudo-terminal', async () => {
    const { env, server } = await loggedIn();
    const cmd = `node ${BIN} coverages create --contract ctr_acme_2026 --name Pty -o json`;
    // script(1) runs the command on a pseudo-terminal and forwards what we write as keystrokes.
    const proc = execa('script', ['-qfec', cmd, '/dev/null'], {
      env: { ...process.env, ...env, CI: '', TERM: 'xterm' },
      reject: false,
      timeout: 20_000,
    });
    let screen = '';
    proc.stdout!.on('data', (d: Buffer) => (screen += d.toString()));
    /** Waits for the question, presses Down, waits for the highlight to reach `second`, then Enter. */
    const choose = async (question: string, second: string) => {
      await expect.poll(() => screen, { timeout: 10_000 }).toContain(question);
      const before = screen.length;
      proc.stdin!.write('\x1b[B');
      await expect.poll(() => screen.slice(before), { timeout: 10_000 }).toMatch(new RegExp(`❯ ${second}`));
      proc.stdin!.write('\r');
    };
    await choose('Type (--type):', 'override');
    await choose('Payment method (--payment-method):', 'postpaid');
    const r = await proc;
    expect(r.exitCode).toBe(0);
    const created = JSON.parse(screen.slice(screen.indexOf('{')).replace(/\r/g, ''));
    expect(created).toMatchObject({ name: 'Pty', type: 'override', paymentMethod: 'postpaid' });
    const stored = await fetch(`${server.url}/insurance-coverages/${created.id}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect((await stored.json()).paymentMethod).toBe('postpaid');
  });
});
