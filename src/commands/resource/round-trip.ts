import type { Ctx } from '../../context.js';
import { canonical } from '../../core/sync/existing.js';
import { FACTS, type Resource } from '../../resources/index.js';

/**
 * A whole record sent back to update (`show -o json`, edited): the fields the service sets, and every
 * field that did not change, are set aside, as import does, so only the edits are sent. A changed
 * create-only field stays in, and the rules refuse it by name.
 */
export function editsOf(
  ctx: Ctx,
  res: Resource,
  current: Record<string, unknown>,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const { serviceSet } = FACTS[res.group];
  const out: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [field, value] of Object.entries(body)) {
    const same = canonical(value) === canonical(current[field]);
    if (serviceSet.includes(field)) {
      if (!same) ignored.push(field);
    } else if (!same) out[field] = value;
  }
  if (ignored.length > 0) {
    ctx.stderr.write(
      `note: set aside ${ignored.join(', ')}: the service sets ${ignored.length === 1 ? 'it' : 'them'}\n`,
    );
  }
  return out;
}
