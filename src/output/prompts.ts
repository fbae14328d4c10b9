import type { Ctx } from '../context.js';
import { InterruptedError } from '../errors.js';
import { promptStream } from './terminal.js';
import { visible } from './text.js';

/**
 * Ctrl-C at a prompt, or the end of input (Ctrl-D), is the person cancelling, not a crash: one word
 * and exit 130, nothing sent. inquirer says either with an ExitPromptError.
 */
async function cancellable<T>(answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === 'ExitPromptError' || name === 'AbortPromptError')
      throw new InterruptedError('cancelled; nothing was sent');
    throw err;
  }
}

/** @inquirer/prompts bound to the context's streams: questions go to stderr, so stdout stays data. */
export async function prompter(ctx: Ctx) {
  const p = await import('@inquirer/prompts');
  const { Writable } = await import('node:stream');
  // Each prompt ends its output stream when done; give it a fresh view of stderr so stderr stays open.
  const stderr = promptStream(ctx.stderr);
  const view = () =>
    Object.assign(new Writable({ write: (chunk, _enc, done) => void stderr.write(chunk, done) }), {
      isTTY: stderr.isTTY,
      columns: stderr.columns,
      rows: (stderr as { rows?: number }).rows,
    });
  // The end of input (Ctrl-D) ends the prompt. inquirer's readline closes and waits on nothing, so Node
  // would find nothing left to do and exit 0 under the prompt: that moment (beforeExit), or the input
  // stream ending, cancels it instead.
  const io = () => {
    const controller = new AbortController();
    const stop = () => controller.abort();
    const input = ctx.stdin as NodeJS.ReadableStream;
    input.once('end', stop);
    input.once('close', stop);
    process.once('beforeExit', stop);
    return {
      input: ctx.stdin,
      output: view(),
      signal: controller.signal,
      done: () => {
        input.off('end', stop);
        input.off('close', stop);
        process.off('beforeExit', stop);
      },
    };
  };
  // Every prompt passes here, and --timeout does not count a person's time to answer (ctx.clock).
  const ask = <T>(prompt: (ctx: ReturnType<typeof io>) => Promise<T>) =>
    ctx.clock.untimed(() => {
      const context = io();
      return cancellable(prompt(context)).finally(context.done);
    });
  // A default is shown and, when accepted, returned as it is: one with a control character is not offered.
  const shown = (v: string | undefined) => (v !== undefined && visible(v, true) === v ? v : undefined);
  const required = (v: string) => (v.trim() === '' ? 'a value is required' : true);
  return {
    text: (
      message: string,
      opts: { required?: boolean; default?: string; validate?: (v: string) => true | string } = {},
    ) =>
      ask((c) =>
        p.input(
          {
            message: visible(message, true),
            default: shown(opts.default),
            validate: opts.validate ?? (opts.required ? required : undefined),
          },
          c,
        ),
      ),
    secret: (message: string) =>
      ask((c) => p.password({ message: visible(message, true), mask: '*', validate: required }, c)),
    choose: <T extends string>(message: string, choices: readonly T[], fallback?: T) =>
      ask((c) =>
        p.select<T>(
          {
            message: visible(message, true),
            choices: choices.map((value) => ({ value, name: visible(value, true) })),
            default: fallback,
          },
          c,
        ),
      ),
    confirm: (message: string, fallback = false) =>
      ask((c) => p.confirm({ message: visible(message, true), default: fallback }, c)),
  };
}
