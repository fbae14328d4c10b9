// Covers: src/commands/serve-run.ts src/server/start.ts
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * Signals as a process gets them: each goes to the handlers in place, and with none in place the default
 * action kills the process by the signal (what a CI job then reports as no exit code at all).
 */
function signals() {
  const handlers: { resolve: (s: NodeJS.Signals) => void; live: boolean }[] = [];
  let killedBy: NodeJS.Signals | undefined;
  return {
    waitForSignal: () => {
      let resolve: (s: NodeJS.Signals) => void = () => undefined;
      const promise = new Promise<NodeJS.Signals>((r) => {
        resolve = r;
      });
      const h = { resolve, live: true };
      handlers.push(h);
      const cancel = () => {
        h.live = false;
      };
      return { promise, cancel };
    },
    send(s: NodeJS.Signals) {
      const live = handlers.filter((h) => h.live);
      if (live.length === 0) killedBy ??= s;
      for (const h of live) h.resolve(s);
    },
    killedBy: () => killedBy,
  };
}

/** A stream that keeps what is written and calls `seen` with all of it after each write, an empty one too. */
function sink(seen: (text: string, chunk: string) => void) {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString();
      seen(text, chunk.toString());
      done();
    },
  });
  return { stream, text: () => text };
}

describe('serve: a second signal at any moment before the exit gives 130, never a kill by the signal', () => {
  // The graceful stop has finished in both: the second signal lands as the last line is written, or while
  // the output drains after the run has returned (the flush writes nothing and waits for it to leave).
  it.each([
    ['as the last line is written', (chunk: string) => chunk.startsWith('stopped; the data is saved')],
    ['while the output drains', (chunk: string) => chunk === ''],
  ])('%s', async (_when, now) => {
    const dir = await tempDir();
    const file = join(dir, 'data.json');
    const sig = signals();
    let sent = false;
    const stdout = sink((text) => {
      if (text.includes('listening on') && !sent) {
        sent = true;
        sig.send('SIGTERM');
      }
    });
    let second = false;
    const stderr = sink((text, chunk) => {
      if (!second && text.includes('stopped; the data is saved') && now(chunk)) {
        second = true;
        sig.send('SIGINT');
      }
    });
    const code = await run(['serve', '--port', '0', '--data', file, '--token', 't'], {
      stdout: stdout.stream,
      stderr: stderr.stream,
      env: { XDG_RUNTIME_DIR: dir, CLINADMIN_CONFIG_DIR: dir },
      cwd: dir,
      isInteractive: false,
      waitForSignal: sig.waitForSignal,
    });
    expect(second, stderr.text()).toBe(true);
    expect(sig.killedBy()).toBeUndefined();
    expect(code).toBe(130);
    expect(stderr.text()).toContain(`stopped; the data is saved in ${file}\n`);
  });
});
