import type { Command } from 'commander';
import type { RangeVerbs } from '../../core/range-verbs.js';
import type { FieldFlag } from '../../resources/index.js';
import { collect } from '../shared.js';
import { flagName, optionKey } from './fields.js';

// update's verbs for lists of ranges: a range is added, set or removed in place; replacing them all is
// its own flag, shown as a diff and confirmed. `--reference-range` alone, on update, would silently drop
// the others, so it is refused with a pointer to these.

const base = (f: FieldFlag) => flagName(f).slice(2);

/** A range as the flag takes it: a reference range's bounds, or a panic range's critical limits. */
const example = (f: FieldFlag) =>
  f.kind === 'panic-ranges' ? '"<2.5 sex=male" (critical limits)' : '"3.5-5.1 sex=male"';

export function addRangeVerbs(cmd: Command, rangeFlags: FieldFlag[]): void {
  for (const f of rangeFlags) {
    const b = base(f);
    cmd
      .option(`--add-${b} <range>`, `add a ${b.replace('-', ' ')}, repeatable; e.g. ${example(f)}`, collect)
      .option(`--set-${b} <"N|ID range">`, `change one in place: its place (from 1) or id, then the range`, collect)
      .option(`--remove-${b} <N|ID>`, `remove one: its place (from 1) or id, repeatable`, collect)
      .option(`--replace-${b}s <range>`, `replace them all (repeatable; shows the diff and asks)`, collect);
  }
}

export function rangeVerbsOf(opts: Record<string, unknown>, f: FieldFlag): RangeVerbs {
  const b = base(f);
  const list = (flag: string) => (opts[optionKey(flag)] as string[] | undefined) ?? [];
  const replace = opts[optionKey(`--replace-${b}s`)] as string[] | undefined;
  return { add: list(`--add-${b}`), set: list(`--set-${b}`), remove: list(`--remove-${b}`), replace };
}

export const rangeHint = (f: FieldFlag) => {
  const b = base(f);
  return `use --add-${b}, --set-${b} "N|ID range", --remove-${b} N|ID, or --replace-${b}s to replace them all`;
};
