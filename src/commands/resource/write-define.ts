import { type Command, Option } from 'commander';
import type { Ctx } from '../../context.js';
import type { FieldFlag } from '../../resources/index.js';
import { collect } from '../shared.js';

// What create and update share in their definitions: the flags of the fields, and the whole body from a
// file or JSON. Nothing heavy is imported here; each verb's run module is loaded when it runs.

/** What a resource adds to its create and update: examples, the clinical checks, the questions. */
export interface WriteSpec {
  examples: string;
  /** Asks a person at the terminal for what is missing (create only). */
  prompt?: (ctx: Ctx, body: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /** The clinical checks import and lint run; their warnings are errors with --strict. */
  lint?: (body: Record<string, unknown>) => Promise<{ field: string; message: string }[]>;
}

export const isRangeFlag = (f: FieldFlag) => f.kind === 'ranges' || f.kind === 'panic-ranges';

/** A flag per field; `hidden` ones stay known (a sentence, not "unknown option", when used) but unlisted. */
export function addFieldFlags(cmd: Command, flags: FieldFlag[], hidden: (f: FieldFlag) => boolean): void {
  for (const f of flags) {
    const option = new Option(f.flags, f.description);
    if (hidden(f)) option.hideHelp();
    if (f.choices) option.choices(f.choices);
    if (f.kind === 'list' || isRangeFlag(f)) option.argParser(collect);
    cmd.addOption(option);
  }
}

/** --strict, for every command that runs the clinical checks: its words once. */
export const strictOption = () =>
  new Option('--strict', 'treat the clinical warnings (those `measures lint` gives) as errors');

/** --strict (where the resource has clinical checks), --file and --data, and the examples. */
export function addBodyFlags(cmd: Command, w: WriteSpec): Command {
  if (w.lint) cmd.addOption(strictOption());
  return cmd
    .option('-f, --file <path>', 'read the whole body from a JSON file (- for stdin); flags override it')
    .option('-d, --data <json>', 'the whole body as JSON, or @FILE; flags override it')
    .addHelpText('after', w.examples);
}
