import { isUtf8 } from 'node:buffer';
import type { Ctx, OutStream } from '../context.js';
import { visible } from './text.js';
import { colorEnabled } from './theme.js';

// The one writer: run() hands every command a context whose stdout and stderr escape what they are
// given, so no view, status line, error or trace can reach a terminal with a control byte it did not
// mean to send. The raw streams stay here; only the fixed sequences below, and inquirer's prompts, reach them.

const RAW = new WeakMap<object, { raw: OutStream; styled: boolean }>();

/** The sequences a view may send a terminal, by name: fixed strings, never built from data. */
const CONTROLS = {
  clearLine: '\r\u001b[2K',
  enterScreen: '\u001b[?1049h\u001b[?25l',
  leaveScreen: '\u001b[?25h\u001b[?1049l',
} as const;
type Control = keyof typeof CONTROLS;

/** Bytes that are plain ASCII text (tab and newline included) go on as they are: the common case, kept cheap. */
const PLAIN_BYTES = /^[\t\n\x20-\x7e]*$/;

function escapeChunk(chunk: unknown, styled: boolean): unknown {
  if (typeof chunk === 'string') return visible(chunk, false, styled);
  if (Buffer.isBuffer(chunk) || chunk instanceof Uint8Array) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    if (PLAIN_BYTES.test(buf.toString('latin1'))) return buf;
    const text = buf.toString('utf8');
    const safe = visible(text, false, styled);
    // Bytes that are not UTF-8 (a lone 0x9b is CSI to an 8-bit terminal) go out as U+FFFD, never as sent.
    return safe === text && isUtf8(buf) ? buf : Buffer.from(safe);
  }
  return chunk;
}

/** A stream whose writes are escaped (`visible`); everything else is the stream's own. */
export function guard(raw: OutStream, styled: boolean): OutStream {
  if (RAW.has(raw)) return raw;
  const write = (chunk: unknown, ...rest: unknown[]) =>
    (raw.write as (...a: unknown[]) => boolean)(escapeChunk(chunk, styled), ...rest);
  const guarded = new Proxy(raw, {
    get(target, prop) {
      if (prop === 'write') return write;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set(target, prop, value) {
      return Reflect.set(target, prop, value, target);
    },
  });
  RAW.set(guarded, { raw, styled });
  return guarded;
}

/** The context a command runs in, its stdout and stderr guarded; colors pass only where they are on. */
export function guardedContext(ctx: Ctx, noColor: boolean): Ctx {
  const color = (s: OutStream) => colorEnabled(ctx, s, noColor ? false : undefined);
  const stdout = guard(ctx.stdout, color(ctx.stdout));
  let stderr: OutStream | undefined;
  // Its own properties, copied with their getters, so a spread of it (`{ ...ctx }`) keeps them all.
  const { stdout: _o, stderr: _e, ...rest } = Object.getOwnPropertyDescriptors(ctx);
  return Object.defineProperties({} as Ctx, {
    ...rest,
    // Writable: a pager takes its place before a command runs (pageTo).
    stdout: { value: stdout, enumerable: true, writable: true },
    stderr: {
      enumerable: true,
      configurable: true,
      get: () => {
        stderr ??= guard(ctx.stderr, color(ctx.stderr));
        return stderr;
      },
    },
  });
}

const rawOf = (stream: OutStream) => RAW.get(stream)?.raw ?? stream;

/**
 * The same stream with no colors let through: for lines that carry a server's words and no style of ours (a
 * sandbox summary), where a name posing as our theme's colors (`\u001b[32m`) must be shown, not obeyed.
 */
export function unstyled(stream: OutStream): OutStream {
  return RAW.get(stream)?.styled ? guard(rawOf(stream), false) : stream;
}

/** The context's stdout when it is a terminal's own file (not a stream in memory): where a pager may show. */
export function terminalOut(ctx: Ctx): NodeJS.WriteStream | undefined {
  const raw = rawOf(ctx.stdout) as NodeJS.WriteStream & { fd?: unknown };
  return raw.isTTY && typeof raw.fd === 'number' ? raw : undefined;
}

/** What stderr holds back while a pager shows, at most: past it, the rest goes to the terminal at once. */
const HELD_MAX = 64 * 1024;

/**
 * The context's stdout from now on `stream` (a pager's input), guarded as the terminal was. What is said
 * on stderr meanwhile (a note of what a table left out) is held, and said when the returned function is
 * called, once the pager has given the terminal back: after the table, as without a pager.
 */
export function pageTo(ctx: Ctx, stream: OutStream): () => void {
  const styled = RAW.get(ctx.stdout)?.styled ?? false;
  ctx.stdout = guard(stream, styled);
  const stderr = ctx.stderr;
  let held = '';
  const holding = new Proxy(stderr, {
    get(target, prop) {
      if (prop !== 'write') {
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (chunk: unknown, ...rest: unknown[]) => {
        const text = typeof chunk === 'string' ? chunk : String(chunk);
        if (held.length + text.length > HELD_MAX) return (target.write as (...a: unknown[]) => boolean)(chunk, ...rest);
        held += text;
        const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
        done?.();
        return true;
      };
    },
  });
  Object.defineProperty(ctx, 'stderr', { value: holding, enumerable: true, configurable: true, writable: true });
  return () => {
    ctx.stderr = stderr;
    if (held) stderr.write(held);
  };
}

/** Writes one of the fixed sequences, unescaped (a progress line, the alternate screen). */
export function control(stream: OutStream, name: Control): void {
  rawOf(stream).write(CONTROLS[name]);
}

/**
 * A full-screen frame drawn over the last (the browse view): each line escaped with its colors, then
 * the cursor's moves between them.
 */
export function drawFrame(stream: OutStream, lines: readonly string[]): void {
  const styled = RAW.get(stream)?.styled ?? false;
  const body = lines.map((l) => `${visible(l, true, styled)}\u001b[K`).join('\r\n');
  rawOf(stream).write(`\u001b[H${body}\u001b[J`);
}

/**
 * Where data must keep its bytes (`-o csv`, `-o yaml`, an export): exact into a file or a pipe, and
 * escaped like everything else at a terminal.
 */
export function exact(stream: OutStream): OutStream {
  const raw = rawOf(stream);
  return raw.isTTY ? stream : raw;
}

/**
 * inquirer draws its prompts with cursor moves, so it gets the raw stream; what it shows from us
 * (questions, defaults, choices) is escaped where the prompter is made (output/prompts.ts).
 */
export const promptStream = rawOf;
