import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { ChildNews, ChildStart, Run, VerbCall } from './protocol.js';

// The process `startServe` starts (dist/testing-serve.cjs): clinadmin serve, run as the shim runs it, that
// stops by itself once the test process is gone, however it went (closed, crashed, killed).
const load = createRequire(__filename);
const cli = () => load(join(__dirname, 'cli.cjs')) as { run: Run };
process.removeAllListeners('warning');
load(join(__dirname, '..', 'bin', 'compile-cache.cjs')).enableCompileCache(process.env);
// A parent that is gone no longer reads stderr: serve's last words are lost, but the stop and the clean-up go on.
process.stderr.on('error', () => undefined);

/** The parent's IPC channel closed: counted as one SIGTERM, so serve saves, stops and this folder goes. */
const parentGone = new Promise<NodeJS.Signals>((resolve) => process.once('disconnect', () => resolve('SIGTERM')));
let parentCounted = false;

/** serve's wait for a signal, which the parent's going also ends (once: a second wait is a second signal). */
function waitForSignal(signals: NodeJS.Signals[]) {
  let handler: (s: NodeJS.Signals) => void = () => undefined;
  const promise = new Promise<NodeJS.Signals>((resolve) => {
    handler = resolve;
    for (const s of signals) process.on(s, handler);
    if (!parentCounted) {
      parentCounted = true;
      void parentGone.then(resolve);
    }
  });
  const cancel = () => {
    for (const s of signals) process.off(s, handler);
  };
  return { promise, cancel };
}

/** Sends news to the parent; resolves once it is out (a news sent as the channel closes would be lost). */
const send = (news: ChildNews) =>
  new Promise<void>((resolve) => {
    if (!process.connected || !process.send) resolve();
    else process.send(news, undefined, {}, () => resolve());
  });

function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

/** The words with `-o json`, before a `--` that ends the options (after it, it would be a name). */
function withJson(argv: string[]): string[] {
  const end = argv.indexOf('--');
  return end < 0 ? [...argv, '-o', 'json'] : [...argv.slice(0, end), '-o', 'json', ...argv.slice(end)];
}

/**
 * One `clinadmin sandbox` verb against this serve, run here by the CLI's own run(): it does, refuses and says
 * exactly what the command does, and the test's process (its globals, fake timers and module registry) never
 * loads the CLI.
 */
async function verb(call: VerbCall, url: string, token: string, folder: string): Promise<void> {
  const out = sink();
  const err = sink();
  let code: number;
  try {
    code = await cli().run(['sandbox', ...withJson(call.argv)], {
      stdin: Readable.from(call.stdin === undefined ? [] : [call.stdin]),
      stdout: out.stream,
      stderr: err.stream,
      // Only what the verb needs: never a profile, nor a CLINADMIN_* of the test's environment.
      env: { CLINADMIN_BASE_URL: url, CLINADMIN_TOKEN: token, CLINADMIN_CONFIG_DIR: join(folder, 'no-config') },
      isInteractive: false,
    });
  } catch (e) {
    // run() maps every error to words and a code; this is the one it could not, answered rather than lost.
    err.stream.write(`error: ${(e as Error).message}\n`);
    code = 1;
  }
  await send({ id: call.id, code, stdout: out.text(), stderr: err.text() });
}

async function serveFor(start: ChildStart): Promise<void> {
  const folder = start.folder;
  const dataFile = start.dataFile ?? join(folder, 'data.json');
  let ready = false;
  let said = '';
  // serve's one stdout line says where it listens; nothing else is read from it.
  const stdout = new Writable({
    write(chunk, _enc, done) {
      const url = /listening on (\S+)/.exec(String(chunk))?.[1];
      if (url && !ready) {
        ready = true;
        process.on('message', (call: VerbCall) => void verb(call, url, start.token, folder));
        void send({ ready: url, dataFile });
      }
      done();
    },
  });
  // Its last words before it listens say why it could not start; later ones go to this process's stderr.
  const stderr = new Writable({
    write(chunk, _enc, done) {
      if (ready) process.stderr.write(chunk, () => done());
      else {
        said = (said + String(chunk)).slice(-16_384);
        done();
      }
    },
  });
  const seed = start.seed === undefined ? [] : ['--load', '-'];
  let code = 1;
  try {
    code = await cli().run(
      ['serve', '--host', '127.0.0.1', '--port', '0', '--data', dataFile, ...seed, ...start.args],
      {
        stdin: Readable.from(start.seed === undefined ? [] : [start.seed]),
        stdout,
        stderr,
        isInteractive: false,
        waitForSignal,
      },
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  if (!ready) await send({ failed: code, stderr: said });
  process.exitCode = code;
  // The open channel would keep this process alive after serve has stopped.
  if (process.connected) process.disconnect();
}

process.once('message', (start: ChildStart) => void serveFor(start));
