import type { Ctx } from '../context.js';

/** @inquirer/prompts bound to the context's streams: questions go to stderr, so stdout stays data. */
export async function prompter(ctx: Ctx) {
  const p = await import('@inquirer/prompts');
  const { Writable } = await import('node:stream');
  // Each prompt ends its output stream when done; give it a fresh view of stderr so stderr stays open.
  const view = () =>
    Object.assign(new Writable({ write: (chunk, _enc, done) => void ctx.stderr.write(chunk, done) }), {
      isTTY: ctx.stderr.isTTY,
      columns: ctx.stderr.columns,
      rows: (ctx.stderr as { rows?: number }).rows,
    });
  const io = {
    input: ctx.stdin,
    get output() {
      return view();
    },
  };
  const required = (v: string) => (v.trim() === '' ? 'a value is required' : true);
  return {
    text: (
      message: string,
      opts: { required?: boolean; default?: string; validate?: (v: string) => true | string } = {},
    ) =>
      p.input(
        { message, default: opts.default, validate: opts.validate ?? (opts.required ? required : undefined) },
        io,
      ),
    secret: (message: string) => p.password({ message, mask: '*', validate: required }, io),
    choose: <T extends string>(message: string, choices: readonly T[], fallback?: T) =>
      p.select<T>({ message, choices: choices.map((value) => ({ value, name: value })), default: fallback }, io),
    confirm: (message: string, fallback = false) => p.confirm({ message, default: fallback }, io),
  };
}
