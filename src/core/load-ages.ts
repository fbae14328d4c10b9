import { UsageError } from '../errors.js';
import { readAgesIn } from './ages.js';

/**
 * The ages of a file `serve --load` or `sandbox load` reads, in the API's exact years: what `measures export`
 * writes in the lab's notation (`"29d"`, `"11mo"`) is read as every input reads it, in place; numbers are
 * exact years already. Every fault of the file is named at once, by record and field.
 */
export function readLoadAges(raw: unknown, source: string): void {
  const problems: string[] = [];
  const each = (list: unknown, at: (i: number) => string) => {
    if (!Array.isArray(list)) return;
    list.forEach((r, i) => {
      if (r === null || typeof r !== 'object' || Array.isArray(r)) return;
      for (const e of readAgesIn(r as Record<string, unknown>)) problems.push(`${at(i)}: ${e.path}: ${e.message}`);
    });
  };
  if (Array.isArray(raw)) each(raw, (i) => `record ${i + 1}`);
  else if (raw !== null && typeof raw === 'object')
    for (const [key, list] of Object.entries(raw)) each(list, (i) => `${key}[${i}]`);
  if (problems.length > 0)
    throw new UsageError(`${source}: an age is not in a form clinadmin reads; nothing was loaded`, undefined, problems);
}
