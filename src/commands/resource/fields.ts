import { Option } from 'commander';
import { readDecimal } from '../../core/number.js';
import { parseRangeSpec } from '../../core/ranges.js';
import type { FieldFlag } from '../../resources/index.js';

const SIGNED = { negative: true };

/** commander's key for a flags string (`--hl7-code <code>` → hl7Code), as commander itself makes it. */
export const optionKey = (flags: string): string => new Option(flags).attributeName();

/** A field's long flag (`--hl7-code`), as commander reads it from the flags string. */
export const flagName = (f: FieldFlag): string => new Option(f.flags).long!;

/** Sets each field whose flag was given; flags override the body. */
export function applyFlags(
  body: Record<string, unknown>,
  opts: Record<string, unknown>,
  flags: FieldFlag[],
): Record<string, unknown> {
  const out = { ...body };
  for (const f of flags) {
    const raw = opts[optionKey(f.flags)];
    if (raw === undefined) continue;
    const name = flagName(f);
    if (f.kind === 'string') out[f.field] = raw;
    else if (f.kind === 'list')
      out[f.field] = (raw as string[])
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean);
    // A sign is read wherever it is written; the resource's schema then refuses what may not be negative.
    else if (f.kind === 'number') out[f.field] = readDecimal(String(raw), `invalid option ${name}`, SIGNED).value;
    else {
      out[f.field] = (raw as string[]).map((spec) => {
        const r = parseRangeSpec(spec, name, f.kind === 'panic-ranges') as Record<string, unknown>;
        if (f.kind === 'panic-ranges') delete r.id;
        return r;
      });
    }
  }
  return out;
}
