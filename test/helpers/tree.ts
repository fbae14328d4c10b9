import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { createProgram } from '../../src/cli.js';
import type { Ctx } from '../../src/context.js';
import { Clock } from '../../src/deadline.js';

/** A context whose streams go nowhere: for building the program, never for running it against a server. */
export function quietCtx(): Ctx {
  return {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    env: {},
    cwd: process.cwd(),
    isInteractive: false,
    waitForSignal: () => ({ promise: new Promise(() => {}), cancel() {} }),
    clock: new Clock(),
  };
}

export interface CommandPath {
  words: string[];
  command: Command;
  /** Values for the command's required arguments, so that a parse reaches its action. */
  args: string[];
}

/** Every visible command of the full tree, the program itself first (walked, never listed by hand). */
export function commandPaths(): CommandPath[] {
  const out: CommandPath[] = [];
  const walk = (cmd: Command, words: string[]) => {
    const args = cmd.registeredArguments.filter((a) => a.required).map((a) => `${a.name()}-value`);
    // A required option (commander's mandatory) needs a value too, or the parse stops before the action.
    for (const o of cmd.options.filter((o) => o.mandatory)) args.push(o.long!, `${o.attributeName()}-value`);
    out.push({ words, command: cmd, args });
    // What help lists (commander's public Help): the hidden commands left out, and its own help command too.
    const visible = cmd.createHelp().visibleCommands(cmd);
    for (const sub of cmd.commands.filter((c) => visible.includes(c))) walk(sub, [...words, sub.name()]);
  };
  walk(createProgram(quietCtx(), undefined, true), []);
  return out;
}
