import { UsageError } from '../errors.js';
import type { FieldFlag } from '../resources/index.js';
import { parseRangeSpec } from './ranges.js';

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
    else if (f.kind === 'number') {
      const n = Number(raw);
      if (raw === '' || !Number.isFinite(n)) throw new UsageError(`${name} must be a number (got "${String(raw)}")`);
      out[f.field] = n;
    } else {
      out[f.field] = (raw as string[]).map((spec) => {
        const r = parseRangeSpec(spec, name, f.kind === 'panic-ranges') as Record<string, unknown>;
        if (f.kind === 'panic-ranges') delete r.id;
        return r;
      });
    }
  }
  return out;
}
