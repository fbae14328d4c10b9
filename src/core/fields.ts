import type { FieldFlag } from '../resources/index.js';
import { readDecimal } from './number.js';
import { parseRangeSpec } from './ranges.js';

const SIGNED = { negative: true };

/** commander's key for a flags string: `--hl7-code <code>` → hl7Code. */
export function optionKey(flags: string): string {
  const long = /--([a-z0-9-]+)/.exec(flags)![1];
  return long.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export const flagName = (f: FieldFlag) => /--[a-z0-9-]+/.exec(f.flags)![0];

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
